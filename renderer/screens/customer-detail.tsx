import { useState } from 'react';
import type { Customer, MailMessage } from '../../shared/schemas/customer';
import type { Invoice } from '../../shared/schemas/invoice';
import type { Job } from '../../shared/schemas/job';
import type { Quote } from '../../shared/schemas/quote';
import { api, errorMessage, type ListPage } from '../lib/api';
import { href } from '../lib/router';
import { useFormat, useSession } from '../lib/session';
import { useResource } from '../lib/use-resource';
import {
  Button,
  Card,
  Details,
  Dialog,
  EmptyState,
  ErrorNotice,
  Field,
  Input,
  LinkButton,
  PageHeader,
  Stat,
  StatusBadge,
  Table,
  Textarea,
  useToast,
} from '../ui';
import { Loaded } from './common';

export function CustomerDetail({ email }: { email: string }) {
  const format = useFormat();
  const path = `/customers/${encodeURIComponent(email)}`;
  const customer = useResource(() => api.get<Customer>(path), path);
  return (
    <Loaded resource={customer}>
      {(c) => (
        <>
          <PageHeader
            back={{ href: '#/customers', label: 'Customers' }}
            title={c.name}
            subtitle={
              <>
                {c.email}
                {c.phone && ` · ${c.phone}`} · customer since {format.date(c.created_at)}
              </>
            }
            actions={
              <>
                <LinkButton
                  href={`#/quotes/new?email=${encodeURIComponent(c.email)}&name=${encodeURIComponent(c.name)}`}
                >
                  New quote
                </LinkButton>
                <LinkButton
                  variant="primary"
                  href={`#/invoices/new?email=${encodeURIComponent(c.email)}&name=${encodeURIComponent(c.name)}`}
                >
                  New invoice
                </LinkButton>
              </>
            }
          />
          <div className="stats">
            <Stat label="Lifetime value" value={format.money(c.lifetime_value)} tone="success" />
            <Stat
              label="Last job"
              value={c.last_job_at ? format.relative(c.last_job_at) : 'Never'}
              detail={c.last_job_at ? format.date(c.last_job_at) : undefined}
            />
            <Stat
              label="Status"
              value={c.lapsed ? 'Lapsed' : 'Active'}
              tone={c.lapsed ? 'warning' : undefined}
              detail={c.lapsed ? 'No job for a while: send a win-back' : undefined}
            />
          </div>
          <div className="grid grid-3">
            <div className="stack">
              <History email={c.email} />
            </div>
            <div className="stack">
              <Card title="Details">
                <Details
                  items={[
                    ['Address', c.address],
                    ['Phone', c.phone],
                  ]}
                />
              </Card>
              <TagsCard customer={c} onChange={customer.set} path={path} />
              <WinbackCard customer={c} onChange={customer.set} path={path} />
              <NotesCard customer={c} onChange={customer.set} path={path} />
            </div>
          </div>
        </>
      )}
    </Loaded>
  );
}

function History({ email }: { email: string }) {
  const format = useFormat();
  const query = { customer_email: email, limit: 10 };
  const invoices = useResource(() => api.get<ListPage<Invoice>>('/invoices', query), `inv:${email}`);
  const quotes = useResource(() => api.get<ListPage<Quote>>('/quotes', query), `quo:${email}`);
  const jobs = useResource(() => api.get<ListPage<Job>>('/jobs', query), `job:${email}`);
  return (
    <>
      <Card title="Jobs" padded={false}>
        <Loaded resource={jobs} rows={3}>
          {(page) =>
            page.data.length === 0 ? (
              <EmptyState title="No jobs yet" icon="▦" />
            ) : (
              <Table
                rows={page.data}
                rowKey={(j) => j.id}
                rowHref={(j) => href('jobs', j.job_number)}
                columns={[
                  { header: 'Job', cell: (j) => <span className="cell-title">{j.job_number}</span> },
                  { header: 'Title', cell: (j) => j.title },
                  {
                    header: 'When',
                    cell: (j) => (j.scheduled_start ? format.dateTime(j.scheduled_start) : '—'),
                  },
                  { header: 'Status', cell: (j) => <StatusBadge status={j.status} /> },
                ]}
              />
            )
          }
        </Loaded>
      </Card>
      <Card title="Invoices" padded={false}>
        <Loaded resource={invoices} rows={3}>
          {(page) =>
            page.data.length === 0 ? (
              <EmptyState title="No invoices yet" icon="▤" />
            ) : (
              <Table
                rows={page.data}
                rowKey={(i) => i.id}
                rowHref={(i) => href('invoices', i.number)}
                columns={[
                  { header: 'Number', cell: (i) => <span className="cell-title">{i.number}</span> },
                  { header: 'Issued', cell: (i) => format.date(i.issue_date) },
                  { header: 'Status', cell: (i) => <StatusBadge status={i.status} /> },
                  { header: 'Total', align: 'right', cell: (i) => format.money(i.total, i.currency) },
                  { header: 'Balance', align: 'right', cell: (i) => format.money(i.balance, i.currency) },
                ]}
              />
            )
          }
        </Loaded>
      </Card>
      <Card title="Quotes" padded={false}>
        <Loaded resource={quotes} rows={3}>
          {(page) =>
            page.data.length === 0 ? (
              <EmptyState title="No quotes yet" icon="✎" />
            ) : (
              <Table
                rows={page.data}
                rowKey={(q) => q.id}
                rowHref={(q) => href('quotes', q.number)}
                columns={[
                  { header: 'Number', cell: (q) => <span className="cell-title">{q.number}</span> },
                  { header: 'Issued', cell: (q) => format.date(q.issue_date) },
                  { header: 'Status', cell: (q) => <StatusBadge status={q.status} /> },
                  { header: 'Total', align: 'right', cell: (q) => format.money(q.total, q.currency) },
                ]}
              />
            )
          }
        </Loaded>
      </Card>
    </>
  );
}

interface CardProps {
  customer: Customer;
  path: string;
  onChange(customer: Customer): void;
}

function TagsCard({ customer, path, onChange }: CardProps) {
  const { canWrite } = useSession();
  const [tag, setTag] = useState('');
  const [error, setError] = useState<string>();
  const add = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!tag.trim()) return;
    setError(undefined);
    try {
      onChange(await api.post<Customer>(`${path}/tags`, { tags: [tag.trim()] }));
      setTag('');
    } catch (failure) {
      setError(errorMessage(failure).replace(/^.*?: /, ''));
    }
  };
  const remove = async (name: string) => {
    try {
      onChange(await api.delete<Customer>(`${path}/tags/${encodeURIComponent(name)}`));
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };
  return (
    <Card title="Tags">
      <div className="tag-list">
        {customer.tags.length === 0 && <span className="muted">No tags.</span>}
        {customer.tags.map((t) => (
          <span className="tag" key={t}>
            {t}
            {canWrite && (
              <button type="button" aria-label={`Remove tag ${t}`} onClick={() => remove(t)}>
                ×
              </button>
            )}
          </span>
        ))}
      </div>
      <form className="row inline-form" onSubmit={add}>
        <Field label="Add a tag" error={error} className="grow">
          <Input
            value={tag}
            onChange={(e) => setTag(e.target.value)}
            placeholder="e.g. vip"
            disabled={!canWrite}
          />
        </Field>
        <Button type="submit" write>
          Add
        </Button>
      </form>
    </Card>
  );
}

function NotesCard({ customer, path, onChange }: CardProps) {
  const format = useFormat();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const { canWrite } = useSession();
  const add = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      onChange(await api.post<Customer>(`${path}/notes`, { text }));
      setText('');
    } catch (failure) {
      setError(errorMessage(failure).replace(/^.*?: /, ''));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Notes">
      <form className="stack" onSubmit={add}>
        <Field label="New note" error={error}>
          <Textarea value={text} onChange={(e) => setText(e.target.value)} disabled={!canWrite} rows={3} />
        </Field>
        <div className="form-actions">
          <Button type="submit" busy={busy} write disabled={!text.trim()}>
            Add note
          </Button>
        </div>
      </form>
      <ul className="plain-list">
        {customer.notes.map((note) => (
          <li key={note.id} className="note">
            <p>{note.text}</p>
            <span className="cell-sub">{format.dateTime(note.created_at)}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function WinbackCard({ customer, path, onChange }: CardProps) {
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [offer, setOffer] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const send = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const result = await api.post<{ customer: Customer; message: MailMessage }>(
        `${path}/winback`,
        offer.trim() ? { offer: offer.trim() } : {},
      );
      onChange(result.customer);
      toast.show(`Win-back e-mail queued for ${result.message.to}`);
      setOpen(false);
      setOffer('');
    } catch (failure) {
      setError(failure as Error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Win back">
      <p className="muted">
        {customer.lapsed
          ? `${customer.name} has not booked in a while. Send a friendly note with an offer.`
          : 'Available once a customer has gone quiet (Settings: win-back period).'}
      </p>
      <Button write disabled={!customer.lapsed} onClick={() => setOpen(true)}>
        Send win-back e-mail
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={`Win back ${customer.name}`}
        footer={
          <>
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button variant="primary" busy={busy} onClick={send} write>
              Queue e-mail
            </Button>
          </>
        }
      >
        {error && <ErrorNotice error={error} />}
        <p className="muted">The message uses your win-back template (Settings › Business).</p>
        <Field label="Offer" hint="Optional, e.g. 15 % off your next clean">
          <Input value={offer} onChange={(e) => setOffer(e.target.value)} autoFocus />
        </Field>
      </Dialog>
    </Card>
  );
}
