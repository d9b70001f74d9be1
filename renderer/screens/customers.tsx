import { useState } from 'react';
import type { Customer, CustomerCreate } from '../../shared/schemas/customer';
import { portal } from '../lib/api';
import { href, navigate } from '../lib/router';
import { useFormat } from '../lib/session';
import { useDraft } from '../lib/use-draft';
import { usePagedList } from '../lib/use-resource';
import { useSubmit } from '../lib/use-submit';
import {
  Button,
  Dialog,
  EmptyState,
  FormActions,
  FormAlert,
  Input,
  PageHeader,
  Toolbar,
  useToast,
} from '../ui';
import { Segmented, useDebounced } from './common';
import { CONTACT_PARAMS, type ContactDraft, CustomerContactFields } from './customer-fields';
import { PossibleDuplicates } from './customer-merge';
import { PagedTable } from './paged-table';
import { SearchField } from './search-field';

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
    lapsed: lapsed === 'all' ? undefined : lapsed === 'lapsed' ? ('true' as const) : ('false' as const),
  };
  const list = usePagedList(
    (cursor) => portal.get('/customers', { params: { query: { ...query, cursor, limit: 50 } } }),
    `customers:${JSON.stringify(query)}`,
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
        <SearchField
          id="customer-search"
          label="Search"
          placeholder="Name, e-mail or phone"
          value={search}
          onChange={setSearch}
        />
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
      <PagedTable
        list={list}
        caption="Customers"
        rowKey={(c) => c.id}
        rowHref={(c) => href('customers', c.id)}
        noun={['customer', 'customers']}
        skeletonRows={8}
        empty={
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
        }
        columns={[
          {
            header: 'Customer',
            cell: (c) => (
              <>
                <div className="cell-title">{c.name}</div>
                <div className="cell-sub">{c.email ?? <span className="muted">No e-mail</span>}</div>
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
      <NewCustomerDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(customer) => navigate(href('customers', customer.id))}
      />
    </>
  );
}

const EMPTY: ContactDraft = { name: '', email: '', phone: '', address: '' };

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
  const { draft: form, setDraft: setForm, set } = useDraft(EMPTY);
  const { busy, error, run } = useSubmit();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const body: CustomerCreate = {
        name: form.name,
        ...(form.email.trim() ? { email: form.email.trim() } : {}),
        ...(form.phone.trim() ? { phone: form.phone } : {}),
        ...(form.address.trim() ? { address: form.address } : {}),
      };
      const customer = await portal.post('/customers', { body });
      toast.show(`${customer.name} added`);
      setForm(EMPTY);
      onClose();
      onCreated(customer);
    });
  };

  return (
    <Dialog open={open} onClose={onClose} title="New customer">
      <form onSubmit={submit} className="stack" noValidate>
        <FormAlert error={error} params={CONTACT_PARAMS} />
        <p className="muted">A name, and at least one way to reach them: e-mail, phone or address.</p>
        <CustomerContactFields
          draft={form}
          set={set}
          error={error}
          required
          emailHint="Needed to e-mail invoices and quotes; without it you print or download them"
          optionalHint="Optional if there is an e-mail"
        />
        <PossibleDuplicates name={form.name} email={form.email} phone={form.phone} />
        <FormActions onCancel={onClose} submitLabel="Add customer" busy={busy} />
      </form>
    </Dialog>
  );
}
