/**
 * Money and tax arithmetic shared by the server and the renderer, so the totals a form shows
 * while the owner types are the totals the server stores. Amounts are integer cents; decimal
 * inputs are scaled to integers (BigInt) before any multiplication, never multiplied as floats.
 */

export const MONEY_DECIMALS = 2;
export const QUANTITY_DECIMALS = 4;
export const UNIT_PRICE_DECIMALS = 4;
export const RATE_DECIMALS = 6;

/** True when `value` is exactly a decimal with at most `places` digits after the point. */
export function hasAtMostDecimals(value: number, places: number): boolean {
  if (!Number.isFinite(value) || Math.abs(value) >= 1e15) return false;
  return Number(value.toFixed(places)) === value;
}

function scaled(value: number, places: number): bigint {
  if (!hasAtMostDecimals(value, places)) {
    throw new RangeError(`${value} has more than ${places} decimal places`);
  }
  const [whole, frac = ''] = value.toFixed(places).replace('-', '').split('.');
  const magnitude = BigInt(whole! + frac.padEnd(places, '0'));
  return value < 0 ? -magnitude : magnitude;
}

/** Integer division rounding half away from zero. */
export function divRoundHalfAway(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = (2n * n + d) / (2n * d);
  return negative ? -q : q;
}

export function toCents(amount: number): number {
  return Number(scaled(amount, MONEY_DECIMALS));
}

export function fromCents(cents: number): number {
  return cents / 100;
}

/** quantity × unit price, in cents, rounded once half away from zero. */
export function lineAmountCents(quantity: number, unitPrice: number): number {
  const product = scaled(quantity, QUANTITY_DECIMALS) * scaled(unitPrice, UNIT_PRICE_DECIMALS);
  // product is in units of 10^-(4+4) major units; cents are 10^-2 major units.
  return Number(divRoundHalfAway(product, 10n ** BigInt(QUANTITY_DECIMALS + UNIT_PRICE_DECIMALS - 2)));
}

/** Tax on a taxable amount in cents at a fractional rate (0.05 = 5 %), rounded once half away from zero. */
export function taxAmountCents(taxableCents: number, rate: number): number {
  const product = BigInt(taxableCents) * scaled(rate, RATE_DECIMALS);
  return Number(divRoundHalfAway(product, 10n ** BigInt(RATE_DECIMALS)));
}

export interface LineInput {
  description: string;
  quantity: number;
  unit_price: number;
}

export interface TaxInput {
  name: string;
  rate: number;
}

export interface DocumentTotals {
  lines: Array<LineInput & { amount_cents: number }>;
  taxes: Array<TaxInput & { amount_cents: number }>;
  subtotal_cents: number;
  tax_total_cents: number;
  total_cents: number;
}

/**
 * Each line is rounded to the cent; each tax is computed on the whole subtotal and rounded once
 * (contract part 3), so GST + PST on many small lines never drifts by accumulated half-cents.
 */
export function computeTotals(items: LineInput[], taxes: TaxInput[]): DocumentTotals {
  const lines = items.map((item) => ({
    ...item,
    amount_cents: lineAmountCents(item.quantity, item.unit_price),
  }));
  const subtotal = lines.reduce((sum, line) => sum + line.amount_cents, 0);
  const taxLines = taxes.map((tax) => ({ ...tax, amount_cents: taxAmountCents(subtotal, tax.rate) }));
  const taxTotal = taxLines.reduce((sum, tax) => sum + tax.amount_cents, 0);
  return {
    lines,
    taxes: taxLines,
    subtotal_cents: subtotal,
    tax_total_cents: taxTotal,
    total_cents: subtotal + taxTotal,
  };
}
