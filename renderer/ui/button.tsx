import type { ButtonHTMLAttributes, ReactNode } from 'react';
import type { Permission } from '../../shared/roles';
import { READ_ONLY_REASON, useSession } from '../lib/session';
import { Spinner } from './feedback';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'danger' | 'ghost';
  size?: 'sm' | 'md';
  busy?: boolean;
  /** A button that changes data: disabled, with the reason, on a read-only plan. */
  write?: boolean;
  /** An action only some roles may take (shared/roles.ts): not shown to the others. */
  needs?: Permission;
  icon?: ReactNode;
}

export function Button({
  variant = 'secondary',
  size = 'md',
  busy = false,
  write = false,
  needs,
  icon,
  disabled,
  title,
  children,
  className,
  type = 'button',
  ...rest
}: ButtonProps) {
  const { canWrite, may } = useSession();
  const readOnly = write && !canWrite;
  if (needs && !may(needs)) return null;
  return (
    <button
      type={type}
      className={`btn btn-${variant} btn-${size}${className ? ` ${className}` : ''}`}
      disabled={disabled || busy || readOnly}
      title={readOnly ? READ_ONLY_REASON : title}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy ? <Spinner size={14} /> : icon}
      {children}
    </button>
  );
}

/** A link styled as a button (downloads, PDF, navigation). */
export function LinkButton({
  variant = 'secondary',
  size = 'md',
  children,
  ...rest
}: React.AnchorHTMLAttributes<HTMLAnchorElement> & {
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
}) {
  return (
    <a className={`btn btn-${variant} btn-${size}`} {...rest}>
      {children}
    </a>
  );
}
