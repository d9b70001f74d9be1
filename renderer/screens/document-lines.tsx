import type { Dispatch, SetStateAction } from 'react';
import type { z } from 'zod';
import { fromCents, hasAtMostDecimals, RATE_DECIMALS } from '../../shared/money';
import { type Problem, problemWith } from '../lib/limits';
import { useFormat } from '../lib/session';
import { Button, Card, Field, fieldError, Input } from '../ui';

/** The lines and taxes of the invoice and quote editor (document-form.tsx), as typed. */

export interface LineDraft {
  key: number;
  description: string;
  quantity: string;
  unit_price: string;
}

export interface TaxDraft {
  key: number;
  name: string;
  /** Percent as typed (7 for 7 %); the API takes a fraction. */
  percent: string;
}

let nextKey = 1;
/** A key for a new line or tax row, unique in the page. */
export const newKey = () => nextKey++;
export const blankLine = (): LineDraft => ({
  key: nextKey++,
  description: '',
  quantity: '1',
  unit_price: '',
});
export const percentText = (rate: number) => String(Number((rate * 100).toFixed(RATE_DECIMALS - 2)));

/** The number typed, or undefined while it is not one; a decimal comma reads as a point. */
export function parseNumber(text: string): number | undefined {
  const trimmed = text.trim().replace(',', '.');
  if (!/^\d*\.?\d*$/.test(trimmed) || trimmed === '' || trimmed === '.') return undefined;
  return Number(trimmed);
}

/** 7.5 (percent) → 0.075, exact to the 6 decimals a rate may have. */
export function percentToRate(text: string): number | undefined {
  const percent = parseNumber(text);
  if (percent === undefined || !hasAtMostDecimals(percent, RATE_DECIMALS - 2) || percent > 100)
    return undefined;
  return Number((percent / 100).toFixed(RATE_DECIMALS));
}

/** A typed number checked by the shared schema's rule: its limits and decimals, as the server has them. */
export function numberProblem(text: string, schema: z.ZodType): Problem | undefined {
  if (text.trim() === '') return undefined;
  const value = parseNumber(text);
  if (value === undefined) return { message: 'Must be a number, such as 12.5', overLimit: false };
  return problemWith(schema, value);
}

/** A typed line read as numbers, with what is wrong with each field. */
export interface ParsedLine {
  description: string;
  quantity: number | undefined;
  unit_price: number | undefined;
  problems: Record<'description' | 'quantity' | 'unit_price', Problem | undefined>;
  overLimit: boolean;
}

export function LinesCard({
  lines,
  setLines,
  parsed,
  amountCents,
  error,
}: {
  lines: LineDraft[];
  setLines: Dispatch<SetStateAction<LineDraft[]>>;
  parsed: ParsedLine[];
  amountCents(index: number): number;
  error: unknown;
}) {
  const format = useFormat();
  const updateLine = (key: number, patch: Partial<LineDraft>) =>
    setLines((all) => all.map((l) => (l.key === key ? { ...l, ...patch } : l)));
  return (
    <Card
      title="Items"
      actions={
        <Button size="sm" onClick={() => setLines((all) => [...all, blankLine()])}>
          Add line
        </Button>
      }
    >
      <table className="lines">
        <thead>
          <tr>
            <th>Description</th>
            <th style={{ width: 110 }}>Quantity</th>
            <th style={{ width: 140 }}>Unit price</th>
            <th style={{ width: 120, textAlign: 'right' }}>Amount</th>
            <th style={{ width: 40 }}>
              <span className="sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line, index) => (
            <tr key={line.key}>
              <td data-label="Description">
                <Field
                  label={<span className="sr-only">Description of line {index + 1}</span>}
                  error={
                    parsed[index]!.problems.description?.message ??
                    fieldError(error, `items[${index}].description`)
                  }
                >
                  <Input
                    value={line.description}
                    onChange={(e) => updateLine(line.key, { description: e.target.value })}
                    placeholder="e.g. Deep clean, 3-bedroom house"
                    name={`items[${index}].description`}
                  />
                </Field>
              </td>
              <td data-label="Quantity">
                <Field
                  label={<span className="sr-only">Quantity of line {index + 1}</span>}
                  error={
                    parsed[index]!.problems.quantity?.message ?? fieldError(error, `items[${index}].quantity`)
                  }
                >
                  <Input
                    inputMode="decimal"
                    value={line.quantity}
                    onChange={(e) => updateLine(line.key, { quantity: e.target.value })}
                    name={`items[${index}].quantity`}
                  />
                </Field>
              </td>
              <td data-label="Unit price">
                <Field
                  label={<span className="sr-only">Unit price of line {index + 1}</span>}
                  error={
                    parsed[index]!.problems.unit_price?.message ??
                    fieldError(error, `items[${index}].unit_price`)
                  }
                >
                  <Input
                    inputMode="decimal"
                    value={line.unit_price}
                    onChange={(e) => updateLine(line.key, { unit_price: e.target.value })}
                    placeholder="0.00"
                    name={`items[${index}].unit_price`}
                  />
                </Field>
              </td>
              <td className="num" data-label="Amount" data-testid={`line-amount-${index}`}>
                {parsed[index]!.overLimit ? 'Over the limit' : format.money(fromCents(amountCents(index)))}
              </td>
              <td className="line-remove">
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Remove line ${index + 1}`}
                  disabled={lines.length === 1}
                  onClick={() => setLines((all) => all.filter((l) => l.key !== line.key))}
                >
                  ×
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {fieldError(error, 'items') && <p className="field-error">{fieldError(error, 'items')}</p>}
    </Card>
  );
}

export function TaxesCard({
  taxes,
  setTaxes,
  parsed,
  error,
}: {
  taxes: TaxDraft[];
  setTaxes: Dispatch<SetStateAction<TaxDraft[]>>;
  parsed: Array<{ rate: number | undefined }>;
  error: unknown;
}) {
  const updateTax = (key: number, patch: Partial<TaxDraft>) =>
    setTaxes((all) => all.map((t) => (t.key === key ? { ...t, ...patch } : t)));
  return (
    <Card
      title="Taxes"
      actions={
        <Button
          size="sm"
          onClick={() => setTaxes((all) => [...all, { key: newKey(), name: '', percent: '' }])}
          disabled={taxes.length >= 5}
        >
          Add tax
        </Button>
      }
    >
      {taxes.length === 0 && <p className="muted">No taxes. Set defaults under Settings › Business.</p>}
      <div className="stack">
        {taxes.map((tax, index) => (
          <div className="row tax-row" key={tax.key}>
            <Field
              label={`Tax ${index + 1} name`}
              error={fieldError(error, `taxes[${index}].name`)}
              className="grow"
            >
              <Input
                value={tax.name}
                onChange={(e) => updateTax(tax.key, { name: e.target.value })}
                placeholder="GST"
              />
            </Field>
            <Field
              label="Rate (%)"
              error={
                (tax.percent.trim() && parsed[index]!.rate === undefined
                  ? 'a percentage from 0 to 100'
                  : undefined) ?? fieldError(error, `taxes[${index}].rate`)
              }
            >
              <Input
                inputMode="decimal"
                value={tax.percent}
                onChange={(e) => updateTax(tax.key, { percent: e.target.value })}
                placeholder="5"
                className="input input-narrow"
              />
            </Field>
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Remove tax ${index + 1}`}
              onClick={() => setTaxes((all) => all.filter((t) => t.key !== tax.key))}
            >
              Remove
            </Button>
          </div>
        ))}
      </div>
    </Card>
  );
}
