import { useState } from 'react';
import type { Invoice } from '../../shared/schemas/invoice';
import { api, portalUrl } from '../lib/api';
import { zonedLocalToIso } from '../lib/format';
import { href, navigate } from '../lib/router';
import { useFormat, useSession } from '../lib/session';
import { useResource } from '../lib/use-resource';
import {
  Button,
  Card,
  Details,
  Dialog,
  EmptyState,
  Field,
  fieldError,
  formError,
  Input,
  LinkButton,
  PageHeader,
  Select,
  StatusBadge,
  Table,
  useToast,
} from '../ui';
import { Loaded } from './common';
import { DocumentLines } from './document-view';

const OPEN = ['draft', 'sent', 'partially_paid', 'overdue'];

export function InvoiceDetail({ number }: { number: string }) {
  const format = useFormat();
  const toast = useToast();
  const path = `/invoices/${encodeURIComponent(number)}`;
  const invoice = useResource(() => api.get<Invoice>(path), path);
  const [paying, setPaying] = useState(false);
  const [confirmVoid, setConfirmVoid] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [busy, setBusy] = useState<string>();

  const remove = async () => {
    setBusy('delete');
    try {
      await api.delete(path);
      toast.show(`Draft ${number} deleted`);
      navigate('#/invoices');
    } catch (failure) {
      toast.show((failure as Error).message, 'error');
      setBusy(undefined);
      setConfirmDelete(false);
    }
  };

  const act = async (action: 'send' | 'paid' | 'void', message: (i: Invoice) => string) => {
    setBusy(action);
    try {
      const updated = await api.post<Invoice>(`${path}/${action}`);
      invoice.set(updated);
      toast.show(message(updated));
    } catch (failure) {
      toast.show((failure as Error).message, 'error');
    } finally {
      setBusy(undefined);
      setConfirmVoid(false);
    }
  };

  return (
    <Loaded resource={invoice}>
      {(inv) => {
        const open = OPEN.includes(inv.status);
        const canVoid =
          (inv.status === 'draft' || inv.status === 'sent' || inv.status === 'overdue') &&
          inv.payments.length === 0;
        return (
          <>
            <PageHeader
              back={{ href: '#/invoices', label: 'Invoices' }}
              title={
                <span className="row">
                  Invoice {inv.number} <StatusBadge status={inv.status} />
                </span>
              }
              subtitle={
                <>
                  <a href={href('customers', inv.customer.email)}>{inv.customer.name}</a> ·{' '}
                  {inv.customer.email}
                </>
              }
              actions={
                <>
                  <LinkButton href={portalUrl(`${path}/pdf`)} target="_blank" rel="noopener">
                    PDF
                  </LinkButton>
                  {inv.status === 'draft' && (
                    <>
                      <Button variant="ghost" write onClick={() => setConfirmDelete(true)}>
                        Delete draft
                      </Button>
                      <LinkButton href={href('invoices', inv.number, 'edit')}>Edit</LinkButton>
                    </>
                  )}
                  {canVoid && (
                    <Button variant="danger" write onClick={() => setConfirmVoid(true)}>
                      Void
                    </Button>
                  )}
                  {open && (
                    <Button
                      write
                      busy={busy === 'send'}
                      onClick={() => act('send', (i) => `Invoice ${i.number} queued to ${i.customer.email}`)}
                    >
                      {inv.sent_at ? 'Send again' : 'Send'}
                    </Button>
                  )}
                  {open && (
                    <Button write onClick={() => setPaying(true)}>
                      Record payment
                    </Button>
                  )}
                  {open && (
                    <Button
                      variant="primary"
                      write
                      busy={busy === 'paid'}
                      onClick={() => act('paid', (i) => `Invoice ${i.number} marked paid`)}
                    >
                      Mark paid
                    </Button>
                  )}
                </>
              }
            />
            <div className="grid grid-3">
              <div className="stack">
                <DocumentLines
                  items={inv.items}
                  taxes={inv.taxes}
                  subtotal={inv.subtotal}
                  taxTotal={inv.tax_total}
                  total={inv.total}
                  currency={inv.currency}
                  extra={[
                    { label: 'Paid', value: inv.amount_paid, testId: 'doc-paid' },
                    { label: 'Balance due', value: inv.balance, strong: true, testId: 'doc-balance' },
                  ]}
                />
                <Card title="Payments" padded={false}>
                  {inv.payments.length === 0 ? (
                    <EmptyState title="No payments yet" icon="$" />
                  ) : (
                    <Table
                      rows={inv.payments}
                      rowKey={(p) => p.id}
                      columns={[
                        { header: 'Date', cell: (p) => format.dateTime(p.paid_at) },
                        { header: 'Method', cell: (p) => p.method ?? <span className="muted">—</span> },
                        {
                          header: 'Amount',
                          align: 'right',
                          cell: (p) => format.money(p.amount, inv.currency),
                        },
                      ]}
                    />
                  )}
                </Card>
              </div>
              <Card title="Details">
                <Details
                  items={[
                    ['Issued', format.date(inv.issue_date)],
                    ['Due', format.date(inv.due_date)],
                    ['Sent', inv.sent_at ? format.dateTime(inv.sent_at) : 'Not yet'],
                    ['Paid', inv.paid_at ? format.dateTime(inv.paid_at) : '—'],
                    ...(inv.voided_at
                      ? ([['Voided', format.dateTime(inv.voided_at)]] as Array<[string, string]>)
                      : []),
                    ['Notes', inv.notes],
                  ]}
                />
              </Card>
            </div>
            <PaymentDialog
              open={paying}
              invoice={inv}
              path={path}
              onClose={() => setPaying(false)}
              onRecorded={(updated) => {
                invoice.set(updated);
                toast.show(`Payment recorded on ${updated.number}`);
                setPaying(false);
              }}
            />
            <Dialog
              open={confirmVoid}
              onClose={() => setConfirmVoid(false)}
              title={`Void invoice ${inv.number}?`}
              footer={
                <>
                  <Button onClick={() => setConfirmVoid(false)}>Keep it</Button>
                  <Button
                    variant="danger"
                    write
                    busy={busy === 'void'}
                    onClick={() => act('void', (i) => `Invoice ${i.number} voided`)}
                  >
                    Void invoice
                  </Button>
                </>
              }
            >
              <p>The invoice stays on record as void and can no longer be paid. This cannot be undone.</p>
            </Dialog>
            <Dialog
              open={confirmDelete}
              onClose={() => setConfirmDelete(false)}
              title={`Delete draft ${inv.number}?`}
              footer={
                <>
                  <Button onClick={() => setConfirmDelete(false)}>Keep it</Button>
                  <Button variant="danger" write busy={busy === 'delete'} onClick={remove}>
                    Delete draft
                  </Button>
                </>
              }
            >
              <p>The draft was never sent, so it goes away completely. Sent invoices are voided instead.</p>
            </Dialog>
          </>
        );
      }}
    </Loaded>
  );
}

const METHODS = ['card', 'cash', 'e-transfer', 'cheque', 'bank transfer', 'other'];

function PaymentDialog({
  open,
  invoice,
  path,
  onClose,
  onRecorded,
}: {
  open: boolean;
  invoice: Invoice;
  path: string;
  onClose(): void;
  onRecorded(invoice: Invoice): void;
}) {
  const { session } = useSession();
  const format = useFormat();
  const [amount, setAmount] = useState('');
  const [method, setMethod] = useState('card');
  const [paidAt, setPaidAt] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const updated = await api.post<Invoice>(`${path}/payment`, {
        amount: Number(amount.replace(',', '.')),
        method,
        ...(paidAt ? { paid_at: zonedLocalToIso(paidAt, session.timezone) } : {}),
      });
      setAmount('');
      setPaidAt('');
      onRecorded(updated);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const general = formError(error, ['amount', 'method', 'paid_at']);
  return (
    <Dialog open={open} onClose={onClose} title={`Record a payment on ${invoice.number}`}>
      <form className="stack" onSubmit={submit} noValidate>
        {general && (
          <div className="notice notice-error" role="alert">
            {general}
          </div>
        )}
        <Field
          label="Amount"
          hint={`Balance due: ${format.money(invoice.balance, invoice.currency)}`}
          error={fieldError(error, 'amount')}
        >
          <Input
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            autoFocus
            placeholder="0.00"
          />
        </Field>
        <Field label="Method" error={fieldError(error, 'method')}>
          <Select value={method} onChange={(e) => setMethod(e.target.value)}>
            {METHODS.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Paid on" hint="Leave empty for now" error={fieldError(error, 'paid_at')}>
          <Input type="datetime-local" value={paidAt} onChange={(e) => setPaidAt(e.target.value)} />
        </Field>
        <div className="form-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy} write>
            Record payment
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
