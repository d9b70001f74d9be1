import { useState } from 'react';
import type { Customer, CustomerCreate } from '../../shared/schemas/customer';
import { api, type ListPage } from '../lib/api';
import { href, navigate } from '../lib/router';
import { useFormat } from '../lib/session';
import { usePagedList } from '../lib/use-resource';
import {
  Button,
  Dialog,
  EmptyState,
  ErrorNotice,
  Field,
  fieldError,
  formError,
  Input,
  PageHeader,
  SkeletonRows,
  Table,
  Toolbar,
  useToast,
} from '../ui';
import { ListFooter, Segmented, useDebounced } from './common';

type LapsedFilter = 'all' | 'lapsed' | 'active';

export function Customers() {
  const format = useFormat();
  const [search, setSearch] = useState('');
  const [tag, setTag] = useState('');
  const [lapsed, setLapsed] = useState<LapsedFilter>('all');
  const [creating, setCreating] = useState(false);
  const q = useDebounced(search.trim());
  const tagFilter = useDebounced(tag.trim().toLowerCase());
  const query = {
    q: q || undefined,
    tag: tagFilter || undefined,
    lapsed: lapsed === 'all' ? undefined : lapsed === 'lapsed' ? 'true' : 'false',
  };
  const list = usePagedList(
    (cursor) => api.get<ListPage<Customer>>('/customers', { ...query, cursor, limit: 50 }),
    JSON.stringify(query),
  );
  const filtered = Boolean(query.q || query.tag || query.lapsed);

  return (
    <>
      <PageHeader
        title="Customers"
        subtitle="Everyone you have worked for, newest first."
        actions={
          <Button variant="primary" write onClick={() => setCreating(true)}>
            New customer
          </Button>
        }
      />
      <Toolbar>
        <div className="field search">
          <label htmlFor="customer-search">Search</label>
          <Input
            id="customer-search"
            type="search"
            placeholder="Name, e-mail or phone"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="customer-tag">Tag</label>
          <Input
            id="customer-tag"
            placeholder="e.g. vip"
            value={tag}
            onChange={(e) => setTag(e.target.value)}
          />
        </div>
        <Segmented
          label="Activity"
          value={lapsed}
          onChange={setLapsed}
          options={[
            { value: 'all', label: 'All' },
            { value: 'active', label: 'Active' },
            { value: 'lapsed', label: 'Lapsed' },
          ]}
        />
      </Toolbar>
      {list.error && <ErrorNotice error={list.error} onRetry={list.reload} />}
      {list.loading && list.items.length === 0 ? (
        <div className="table-wrap">
          <SkeletonRows rows={8} />
        </div>
      ) : list.items.length === 0 && !list.error ? (
        <div className="table-wrap">
          <EmptyState
            title={filtered ? 'No customers match' : 'No customers yet'}
            icon="☺"
            action={
              !filtered && (
                <Button variant="primary" write onClick={() => setCreating(true)}>
                  Add your first customer
                </Button>
              )
            }
          >
            {filtered
              ? 'Try another search, or clear the filters.'
              : 'Customers also appear here when you create an invoice, quote or job for a new e-mail.'}
          </EmptyState>
        </div>
      ) : (
        <>
          <Table
            caption="Customers"
            rows={list.items}
            rowKey={(c) => c.id}
            rowHref={(c) => href('customers', c.email)}
            columns={[
              {
                header: 'Customer',
                cell: (c) => (
                  <>
                    <div className="cell-title">{c.name}</div>
                    <div className="cell-sub">{c.email}</div>
                  </>
                ),
              },
              { header: 'Phone', cell: (c) => c.phone ?? <span className="muted">—</span> },
              {
                header: 'Tags',
                cell: (c) => (
                  <span className="tag-list">
                    {c.tags.map((t) => (
                      <span className="tag" key={t}>
                        {t}
                      </span>
                    ))}
                    {c.lapsed && <span className="badge badge-warning">Lapsed</span>}
                  </span>
                ),
              },
              {
                header: 'Last job',
                cell: (c) =>
                  c.last_job_at ? format.relative(c.last_job_at) : <span className="muted">Never</span>,
              },
              { header: 'Lifetime value', align: 'right', cell: (c) => format.money(c.lifetime_value) },
            ]}
          />
          <ListFooter
            count={list.items.length}
            hasMore={list.hasMore}
            loading={list.loading}
            onMore={list.loadMore}
            noun={['customer', 'customers']}
          />
        </>
      )}
      <NewCustomerDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(customer) => navigate(href('customers', customer.email))}
      />
    </>
  );
}

const EMPTY: CustomerCreate = { name: '', email: '', phone: '', address: '' };

export function NewCustomerDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose(): void;
  onCreated(customer: Customer): void;
}) {
  const toast = useToast();
  const [form, setForm] = useState<CustomerCreate>(EMPTY);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const set = (field: keyof CustomerCreate) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setForm({ ...form, [field]: e.target.value });

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const customer = await api.post<Customer>('/customers', {
        name: form.name,
        email: form.email,
        ...(form.phone ? { phone: form.phone } : {}),
        ...(form.address ? { address: form.address } : {}),
      });
      toast.show(`${customer.name} added`);
      setForm(EMPTY);
      onClose();
      onCreated(customer);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const general = formError(error, ['name', 'email', 'phone', 'address']);
  return (
    <Dialog open={open} onClose={onClose} title="New customer">
      <form onSubmit={submit} className="stack" noValidate>
        {general && (
          <div className="notice notice-error" role="alert">
            {general}
          </div>
        )}
        <Field label="Name" error={fieldError(error, 'name')}>
          <Input value={form.name} onChange={set('name')} required autoFocus autoComplete="off" />
        </Field>
        <Field label="E-mail" error={fieldError(error, 'email')}>
          <Input type="email" value={form.email} onChange={set('email')} required autoComplete="off" />
        </Field>
        <Field label="Phone" hint="Optional" error={fieldError(error, 'phone')}>
          <Input type="tel" value={form.phone ?? ''} onChange={set('phone')} />
        </Field>
        <Field label="Address" hint="Optional" error={fieldError(error, 'address')}>
          <Input value={form.address ?? ''} onChange={set('address')} />
        </Field>
        <div className="form-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy} write>
            Add customer
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
