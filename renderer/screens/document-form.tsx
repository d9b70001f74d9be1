import { useState } from 'react';
import { computeTotals, fromCents } from '../../shared/money';
import type { Config } from '../../shared/schemas/config';
import { documentCreateFields, LineItemInput } from '../../shared/schemas/document';
import { DueDays, type Invoice } from '../../shared/schemas/invoice';
import { type Quote, QuoteCreate } from '../../shared/schemas/quote';
import { portal } from '../lib/api';
import { type Problem, problemWith } from '../lib/limits';
import { useLeaveGuard } from '../lib/router';
import { useFormat, useSession } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { useSubmit } from '../lib/use-submit';
import { Button, Card, Field, FormAlert, fieldError, Input, Textarea } from '../ui';
import { Loaded } from './common';
import { CustomerPicker } from './customer-picker';
import {
  blankLine,
  type LineDraft,
  LinesCard,
  newKey,
  numberProblem,
  type ParsedLine,
  parseNumber,
  percentText,
  percentToRate,
  type TaxDraft,
  TaxesCard,
} from './document-lines';
import { NO_PLACE, PlacePicker, placeField } from './place-picker';

/** What a new document starts from: the customer, and the lines, taxes and notes it bills, if known. */
export interface DocumentStart {
  /** A customer known by id (picked, or the page's customer); their e-mail may be empty. */
  customerId?: string;
  email: string;
  name: string;
  items?: ReadonlyArray<{ description: string; quantity: number; unit_price: number }>;
  taxes?: ReadonlyArray<{ name: string; rate: number }>;
  notes?: string;
}

/** A new document for the customer named in the link (`?customer=cus_…&email=…&name=…`), if any. */
export function startFrom(query: URLSearchParams): DocumentStart {
  return {
    customerId: query.get('customer') ?? '',
    email: query.get('email') ?? '',
    name: query.get('name') ?? '',
  };
}

export interface DocumentBody {
  customer_id?: string;
  property_id?: string | null;
  customer_name?: string;
  customer_email?: string;
  items: Array<{ description: string; quantity: number; unit_price: number }>;
  taxes: Array<{ name: string; rate: number }>;
  /** A create leaves empty notes out; an edit clears them with null. */
  notes?: string | null;
  due_days?: number;
  valid_days?: number;
  due_date?: string;
  valid_until?: string;
}

/** The saved draft an edit starts from. */
export type EditedDocument = Invoice | Quote;

const ITEM = LineItemInput.shape;
/** The term a new document takes, in days, by the same schema the server reads it with. */
const TERM_DAYS = { invoice: DueDays, quote: QuoteCreate.shape.valid_days.unwrap() };

/**
 * The invoice and quote editor. Totals are recomputed on every keystroke with shared/money.ts,
 * the same function the server stores totals with, so the preview and the saved document agree.
 */
export function DocumentForm({
  kind,
  start,
  editing,
  onSubmit,
}: {
  kind: 'invoice' | 'quote';
  start?: DocumentStart;
  /** A draft to edit: the form starts from its lines and taxes and sends a PATCH body. */
  editing?: EditedDocument;
  onSubmit(body: DocumentBody): Promise<void>;
}) {
  const config = useResource(() => portal.get('/config'), 'config');
  return (
    <Loaded resource={config}>
      {(cfg) => (
        <DocumentEditor
          kind={kind}
          config={cfg}
          start={
            editing
              ? {
                  customerId: editing.customer.id,
                  email: editing.customer.email ?? '',
                  name: editing.customer.name,
                  items: editing.items,
                  taxes: editing.taxes,
                  notes: editing.notes ?? '',
                }
              : (start ?? { email: '', name: '' })
          }
          editing={editing}
          onSubmit={onSubmit}
        />
      )}
    </Loaded>
  );
}

function initialTerm(kind: 'invoice' | 'quote', config: Config, editing?: EditedDocument): string {
  if (editing) return 'due_date' in editing ? editing.due_date : editing.valid_until;
  return String(kind === 'invoice' ? config.default_due_days : config.default_valid_days);
}

function DocumentEditor({
  kind,
  config,
  start,
  editing,
  onSubmit,
}: {
  kind: 'invoice' | 'quote';
  config: Config;
  start: DocumentStart;
  editing: EditedDocument | undefined;
  onSubmit(body: DocumentBody): Promise<void>;
}) {
  const format = useFormat();
  const { canWrite } = useSession();
  const [customerId, setCustomerId] = useState(start.customerId ?? '');
  const [name, setName] = useState(start.name);
  const [email, setEmail] = useState(start.email);
  // A draft shows its own place; a new document the customer's default, once their places are known.
  const [place, setPlace] = useState(editing ? (editing.property_id ?? NO_PLACE) : '');
  const [lines, setLines] = useState<LineDraft[]>(() =>
    start.items?.length
      ? start.items.map((item) => ({
          key: newKey(),
          description: item.description,
          quantity: String(item.quantity),
          unit_price: String(item.unit_price),
        }))
      : [blankLine()],
  );
  const [taxes, setTaxes] = useState<TaxDraft[]>(() =>
    (start.taxes ?? config.default_taxes).map((t) => ({
      key: newKey(),
      name: t.name,
      percent: percentText(t.rate),
    })),
  );
  // A new document takes a term in days; a saved draft already has its date, which an edit changes.
  const [term, setTerm] = useState(() => initialTerm(kind, config, editing));
  const [notes, setNotes] = useState(start.notes ?? '');
  const { busy, error, run } = useSubmit();
  const [touched, setTouched] = useState(false);
  useLeaveGuard(touched && !busy);

  const parsedLines = lines.map((line): ParsedLine => {
    const description = line.description.trim();
    const problems = {
      description: description ? problemWith(ITEM.description, description) : undefined,
      quantity: numberProblem(line.quantity, ITEM.quantity),
      unit_price: numberProblem(line.unit_price, ITEM.unit_price),
    };
    return {
      description,
      quantity: parseNumber(line.quantity),
      unit_price: parseNumber(line.unit_price),
      problems,
      overLimit: Boolean(problems.quantity?.overLimit || problems.unit_price?.overLimit),
    };
  });
  const parsedTaxes = taxes.map((tax) => ({ name: tax.name.trim(), rate: percentToRate(tax.percent) }));
  // A line past a limit has no total worth showing: the preview says so instead of a number.
  const overLimit = parsedLines.some((line) => line.overLimit);
  const termProblem = editing ? undefined : numberProblem(term, TERM_DAYS[kind]);
  const notesProblem = problemWith(documentCreateFields.notes, notes.trim() || undefined);

  // Lines still being typed count as zero, so the preview never jumps to an error while typing.
  const usable = (value: number | undefined, problem: Problem | undefined) => (problem ? 0 : (value ?? 0));
  const totals = computeTotals(
    parsedLines.map((l) => ({
      description: l.description,
      quantity: usable(l.quantity, l.problems.quantity),
      unit_price: usable(l.unit_price, l.problems.unit_price),
    })),
    parsedTaxes.map((t) => ({ name: t.name, rate: t.rate ?? 0 })),
  );
  const money = (cents: number) => (overLimit ? 'Over the limit' : format.money(fromCents(cents)));

  const termParam = editing
    ? kind === 'invoice'
      ? 'due_date'
      : 'valid_until'
    : kind === 'invoice'
      ? 'due_days'
      : 'valid_days';

  const termField = (): Partial<DocumentBody> => {
    if (editing) return term ? { [termParam]: term } : {};
    const days = Number.parseInt(term, 10);
    return Number.isFinite(days) ? { [termParam]: days } : {};
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    // An edit that keeps its customer says nothing of them; a picked one goes by id, a typed e-mail
    // with the name of the customer it creates (the server refuses the name alone).
    const sameCustomer = editing !== undefined && customerId === editing.customer.id;
    return run(() =>
      onSubmit({
        ...(sameCustomer
          ? {}
          : customerId
            ? { customer_id: customerId }
            : { customer_email: email.trim(), ...(name.trim() && { customer_name: name.trim() }) }),
        ...placeField(place),
        items: parsedLines.map((l) => ({
          description: l.description,
          quantity: l.quantity ?? Number.NaN,
          unit_price: l.unit_price ?? Number.NaN,
        })),
        taxes: parsedTaxes.map((t) => ({ name: t.name, rate: t.rate ?? Number.NaN })),
        ...(notes.trim() ? { notes: notes.trim() } : editing ? { notes: null } : {}),
        ...termField(),
      }),
    );
  };

  const fieldParams = [
    'customer_id',
    'customer_name',
    'customer_email',
    'property_id',
    'notes',
    termParam,
    'items',
    'taxes',
  ];
  const itemParams = lines.flatMap((_, i) =>
    ['description', 'quantity', 'unit_price'].map((f) => `items[${i}].${f}`),
  );
  const taxParams = taxes.flatMap((_, i) => ['name', 'rate'].map((f) => `taxes[${i}].${f}`));

  return (
    <form
      onSubmit={submit}
      onChange={() => setTouched(true)}
      noValidate
      className="stack"
      aria-label={
        editing ? `Edit ${kind} ${editing.number}` : kind === 'invoice' ? 'New invoice' : 'New quote'
      }
    >
      <FormAlert error={error} params={[...fieldParams, ...itemParams, ...taxParams]} />
      <Card title="Customer">
        <div className="form-grid">
          <CustomerPicker
            customerId={customerId}
            email={email}
            name={name}
            onChange={(choice) => {
              if (choice.customer_id !== customerId) setPlace('');
              setCustomerId(choice.customer_id);
              setEmail(choice.customer_email);
              setName(choice.customer_name);
            }}
            error={error}
            autoFocus={!start.email}
          />
          <PlacePicker customerId={customerId} value={place} onChange={setPlace} error={error} />
        </div>
      </Card>
      <LinesCard
        lines={lines}
        setLines={setLines}
        parsed={parsedLines}
        amountCents={(index) => totals.lines[index]?.amount_cents ?? 0}
        error={error}
      />
      <div className="grid grid-2">
        <TaxesCard taxes={taxes} setTaxes={setTaxes} parsed={parsedTaxes} error={error} />
        <Card title="Totals">
          <dl className="totals" data-testid="form-totals">
            <dt>Subtotal</dt>
            <dd data-testid="form-subtotal">{money(totals.subtotal_cents)}</dd>
            {totals.taxes.map((tax, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: taxes may share a name while being typed
              <div className="totals-row" key={index}>
                <dt>
                  {tax.name || 'Tax'} ({format.percent(tax.rate)})
                </dt>
                <dd data-testid={`form-tax-${index}`}>{money(tax.amount_cents)}</dd>
              </div>
            ))}
            <dt className="grand">Total</dt>
            <dd className="grand" data-testid="form-total">
              {money(totals.total_cents)}
            </dd>
          </dl>
          {overLimit && (
            <p className="field-error" role="alert">
              A line is over the limit: bring its quantity or unit price down to see the total.
            </p>
          )}
        </Card>
      </div>
      <Card title="Terms and notes">
        <div className="form-grid">
          {editing ? (
            <Field label={kind === 'invoice' ? 'Due on' : 'Valid until'} error={fieldError(error, termParam)}>
              <Input type="date" value={term} onChange={(e) => setTerm(e.target.value)} />
            </Field>
          ) : (
            <Field
              label={kind === 'invoice' ? 'Due in (days)' : 'Valid for (days)'}
              error={termProblem?.message ?? fieldError(error, termParam)}
            >
              <Input
                type="number"
                min={TERM_DAYS[kind].minValue ?? undefined}
                max={TERM_DAYS[kind].maxValue ?? undefined}
                value={term}
                onChange={(e) => setTerm(e.target.value)}
              />
            </Field>
          )}
          <Field
            label="Notes"
            hint="Shown on the document"
            error={notesProblem?.message ?? fieldError(error, 'notes')}
            className="span-2"
          >
            <Textarea value={notes} onChange={(e) => setNotes(e.target.value)} rows={3} />
          </Field>
        </div>
      </Card>
      <div className="form-actions">
        <Button onClick={() => window.history.back()}>Cancel</Button>
        <Button type="submit" variant="primary" busy={busy} write disabled={!canWrite}>
          {editing ? 'Save changes' : kind === 'invoice' ? 'Create invoice' : 'Create quote'}
        </Button>
      </div>
    </form>
  );
}
