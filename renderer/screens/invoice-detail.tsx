import { useState } from 'react';
import type { Invoice } from '../../shared/schemas/invoice';
import { portal } from '../lib/api';
import { zonedLocalToIso } from '../lib/format';
import { useFormat, useSession } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { useSubmit } from '../lib/use-submit';
import {
  Button,
  Card,
  ConfirmDialog,
  Dialog,
  EmptyState,
  Field,
  FormActions,
  FormAlert,
  fieldError,
  Input,
  Select,
  Table,
  useToast,
} from '../ui';
import { Loaded } from './common';
import { DeleteDraftDialog, DocumentHeader, DocumentSide, NoEmailNotice } from './document-detail';
import { afterSendWords } from './document-email';
import { DocumentLines } from './document-view';
import { useBusyAction } from './use-busy-action';

const OPEN = ['draft', 'sent', 'partially_paid', 'overdue'];

type Action = 'send' | 'mark-sent' | 'paid' | 'void';

export function InvoiceDetail({ number }: { number: string }) {
  const format = useFormat();
  const toast = useToast();
  const params = { path: { number } };
  const invoice = useResource(() => portal.get('/invoices/{number}', { params }), `invoice:${number}`);
  const [paying, setPaying] = useState(false);
  const [confirmVoid, setConfirmVoid] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const { busy, perform } = useBusyAction<Action>();
  const [mailVersion, setMailVersion] = useState(0);
  const [mailGoingOut, setMailGoingOut] = useState(false);

  const act = async (action: Action, message: (i: Invoice) => string | Promise<string>) => {
    await perform(action, async () => {
      const updated = await portal.post(`/invoices/{number}/${action}` as const, { params });
      invoice.set(updated);
      setMailVersion((v) => v + 1);
      toast.show(await message(updated));
    });
    setConfirmVoid(false);
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
            <DocumentHeader collection="invoices" doc={inv} onDelete={() => setConfirmDelete(true)}>
              {canVoid && (
                <Button variant="danger" write onClick={() => setConfirmVoid(true)}>
                  Void
                </Button>
              )}
              {open && inv.customer.email && (
                <Button
                  write
                  busy={busy === 'send'}
                  disabled={mailGoingOut}
                  title={mailGoingOut ? 'Its e-mail is on its way: see E-mail below' : undefined}
                  onClick={() => act('send', (i) => afterSendWords(i, format))}
                >
                  {inv.sent_at ? 'Send again' : 'Send'}
                </Button>
              )}
              {inv.status === 'draft' && (
                <Button
                  write
                  busy={busy === 'mark-sent'}
                  title="The customer got it another way (handed over, posted): no e-mail is sent"
                  onClick={() => act('mark-sent', (i) => `Invoice ${i.number} marked as sent`)}
                >
                  Mark as sent
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
            </DocumentHeader>
            {open && !inv.customer.email && <NoEmailNotice doc={inv} kind="invoice" />}
            <div className="grid grid-3">
              <div className="stack">
                <DocumentLines
                  document={inv}
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
              <DocumentSide
                doc={inv}
                collection="invoices"
                details={[
                  ['Due', format.date(inv.due_date)],
                  ['Sent', inv.sent_at ? format.dateTime(inv.sent_at) : 'Not sent'],
                  ['Paid', inv.paid_at ? format.dateTime(inv.paid_at) : '—'],
                  ...(inv.voided_at
                    ? ([['Voided', format.dateTime(inv.voided_at)]] as Array<[string, string]>)
                    : []),
                ]}
                mailVersion={mailVersion}
                onChange={invoice.reload}
                onMailPending={setMailGoingOut}
              />
            </div>
            {paying && (
              <PaymentDialog
                invoice={inv}
                onClose={() => setPaying(false)}
                onRecorded={(updated) => {
                  invoice.set(updated);
                  toast.show(`Payment recorded on ${updated.number}`);
                  setPaying(false);
                }}
              />
            )}
            <ConfirmDialog
              open={confirmVoid}
              onClose={() => setConfirmVoid(false)}
              title={`Void invoice ${inv.number}?`}
              confirmLabel="Void invoice"
              busy={busy === 'void'}
              onConfirm={() => act('void', (i) => `Invoice ${i.number} voided`)}
            >
              <p>The invoice stays on record as void and can no longer be paid. This cannot be undone.</p>
            </ConfirmDialog>
            <DeleteDraftDialog
              open={confirmDelete}
              onClose={() => setConfirmDelete(false)}
              collection="invoices"
              number={inv.number}
            >
              <p>The draft was never sent, so it goes away completely. Sent invoices are voided instead.</p>
            </DeleteDraftDialog>
          </>
        );
      }}
    </Loaded>
  );
}

const METHODS = ['card', 'cash', 'e-transfer', 'cheque', 'bank transfer', 'other'];

/** Opens on the balance due, the usual payment; a part payment is typed over it. */
function PaymentDialog({
  invoice,
  onClose,
  onRecorded,
}: {
  invoice: Invoice;
  onClose(): void;
  onRecorded(invoice: Invoice): void;
}) {
  const { session } = useSession();
  const format = useFormat();
  const [amount, setAmount] = useState(() => invoice.balance.toFixed(2));
  const [method, setMethod] = useState('card');
  const [paidAt, setPaidAt] = useState('');
  const { busy, error, run } = useSubmit();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const updated = await portal.post('/invoices/{number}/payment', {
        params: { path: { number: invoice.id } },
        body: {
          amount: Number(amount.replace(',', '.')),
          method,
          ...(paidAt ? { paid_at: zonedLocalToIso(paidAt, session.timezone) } : {}),
        },
      });
      onRecorded(updated);
    });
  };
  return (
    <Dialog open onClose={onClose} title={`Record a payment on ${invoice.number}`}>
      <form className="stack" onSubmit={submit} noValidate>
        <FormAlert error={error} params={['amount', 'method', 'paid_at']} />
        <Field
          label="Amount"
          hint={`Balance due: ${format.money(invoice.balance, invoice.currency)}`}
          error={fieldError(error, 'amount')}
        >
          <Input
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            onFocus={(e) => e.target.select()}
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
        <FormActions onCancel={onClose} submitLabel="Record payment" busy={busy} />
      </form>
    </Dialog>
  );
}
