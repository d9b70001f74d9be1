import { useEffect, useState } from 'react';
import type { Customer } from '../../shared/schemas/customer';
import type { CustomerWithHistory } from '../../shared/schemas/overview';
import { portal } from '../lib/api';
import { href } from '../lib/router';
import { useFormat } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { Button, Card, Details, LinkButton, PageHeader, Stat } from '../ui';
import { Loaded } from './common';
import { NotesCard, TagsCard, WinbackCard } from './customer-cards';
import { ClientHubCard } from './customer-client-hub';
import { EditCustomerDialog } from './customer-edit';
import { CustomerHistoryCards } from './customer-history';
import { MergeCustomerDialog } from './customer-merge';
import { PlacesCard } from './customer-places';
import { RecordHistoryCard } from './record-history';

/** A customer's page, addressed by id (`#/customers/cus_…`) so a changed e-mail breaks no link. */
export function CustomerDetail({ customerId }: { customerId: string }) {
  const customer = useResource(
    () => portal.get('/customers/{email}', { params: { path: { email: customerId } } }),
    `customer:${customerId}`,
  );
  // A link by e-mail (older bookmarks) becomes the id link, which a new e-mail does not break. The
  // data must be this link's customer, not the previous page's still shown while this one loads.
  const byEmail =
    customer.data?.email?.toLowerCase() === customerId.toLowerCase() ? customer.data.id : undefined;
  useEffect(() => {
    if (byEmail) window.location.replace(href('customers', byEmail));
  }, [byEmail]);
  return (
    <Loaded resource={customer}>
      {(c) => (
        <CustomerPage
          customer={c}
          // Tag, note and edit answers are the customer without its history: keep the history we hold.
          onChange={(updated) => customer.set({ ...c, ...updated })}
          reload={customer.reload}
        />
      )}
    </Loaded>
  );
}

function CustomerPage({
  customer: c,
  onChange,
  reload,
}: {
  customer: CustomerWithHistory;
  onChange(customer: Customer): void;
  reload(): void;
}) {
  const format = useFormat();
  const [editing, setEditing] = useState(false);
  const [merging, setMerging] = useState(false);
  const { totals } = c.history;
  const prefill = new URLSearchParams({ customer: c.id, email: c.email ?? '', name: c.name }).toString();
  return (
    <>
      <PageHeader
        back={{ href: '#/customers', label: 'Customers' }}
        title={c.name}
        subtitle={
          <>
            {[c.email ?? 'No e-mail', c.phone].filter(Boolean).join(' · ')} · customer since{' '}
            {format.dateOf(c.created_at)}
          </>
        }
        actions={
          <>
            <Button write onClick={() => setEditing(true)}>
              Edit details
            </Button>
            <Button write onClick={() => setMerging(true)}>
              Merge a duplicate
            </Button>
            <LinkButton href={`#/quotes/new?${prefill}`}>New quote</LinkButton>
            <LinkButton variant="primary" href={`#/invoices/new?${prefill}`}>
              New invoice
            </LinkButton>
          </>
        }
      />
      <div className="stats stats-3" data-testid="customer-totals">
        <Stat label="Invoiced" value={format.money(totals.invoiced)} detail="All invoices, void excluded" />
        <Stat label="Paid" value={format.money(totals.paid)} tone="success" />
        <Stat
          label="Outstanding"
          value={format.money(totals.outstanding)}
          tone={totals.outstanding > 0 ? 'warning' : undefined}
        />
        <Stat label="Lifetime value" value={format.money(c.lifetime_value)} detail="Payments received" />
        <Stat
          label="Last job"
          value={c.last_job_at ? format.relative(c.last_job_at) : 'Never'}
          detail={c.last_job_at ? format.dateOf(c.last_job_at) : 'No completed job yet'}
        />
        <Stat
          label="Status"
          value={c.lapsed ? 'Lapsed' : 'Active'}
          tone={c.lapsed ? 'danger' : undefined}
          detail={
            c.lapsed
              ? 'No job for a while: send a win-back'
              : c.last_job_at
                ? 'Booked recently'
                : 'New customer'
          }
        />
      </div>
      <div className="grid grid-3">
        <div className="stack">
          <CustomerHistoryCards history={c.history} />
        </div>
        <div className="stack">
          <Card title="Details">
            <Details
              items={[
                ['E-mail', c.email ?? 'None: documents are printed or downloaded'],
                ['Phone', c.phone],
                ['Billing address', c.address],
              ]}
            />
          </Card>
          <PlacesCard customerId={c.id} />
          <ClientHubCard customerId={c.id} customerName={c.name} />
          <TagsCard customer={c} onChange={onChange} />
          <WinbackCard customer={c} onSent={reload} />
          <NotesCard customer={c} onChange={onChange} />
          <RecordHistoryCard record={`customers/${c.id}`} version={c.updated_at} onRestored={reload} />
        </div>
      </div>
      <MergeCustomerDialog open={merging} customer={c} onClose={() => setMerging(false)} onMerged={reload} />
      <EditCustomerDialog
        open={editing}
        customer={c}
        onClose={() => setEditing(false)}
        onSaved={(updated) => {
          setEditing(false);
          onChange(updated);
        }}
      />
    </>
  );
}
