export { Badge, StatusBadge, statusLabel, type Tone } from './badge';
export { Button, type ButtonProps, LinkButton } from './button';
export { Dialog } from './dialog';
export { EmptyState, ErrorNotice, Notice, Skeleton, SkeletonRows, Spinner } from './feedback';
export { Checkbox, Field, fieldError, formError, Input, Select, Textarea } from './form';
export { Card, Details, PageHeader, Stat, Toolbar } from './layout';
export { type Column, Table } from './table';
export { ToastProvider, useToast } from './toast';
