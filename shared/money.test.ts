import { describe, expect, it } from 'vitest';
import {
  computeTotals,
  divRoundHalfAway,
  fromCents,
  hasAtMostDecimals,
  lineAmountCents,
  taxAmountCents,
  toCents,
} from './money';

describe('rounding half away from zero', () => {
  it('rounds exact halves away from zero in both directions', () => {
    expect(divRoundHalfAway(5n, 10n)).toBe(1n);
    expect(divRoundHalfAway(15n, 10n)).toBe(2n);
    expect(divRoundHalfAway(25n, 10n)).toBe(3n);
    expect(divRoundHalfAway(-5n, 10n)).toBe(-1n);
    expect(divRoundHalfAway(-25n, 10n)).toBe(-3n);
    expect(divRoundHalfAway(5n, -10n)).toBe(-1n);
    expect(divRoundHalfAway(4n, 10n)).toBe(0n);
    expect(divRoundHalfAway(-4n, 10n)).toBe(0n);
  });

  it('rounds half a cent up: 0.005 becomes 0.01', () => {
    expect(lineAmountCents(1, 0.005)).toBe(1);
    expect(lineAmountCents(1, 0.0049)).toBe(0);
    expect(lineAmountCents(0.5, 0.01)).toBe(1);
    expect(lineAmountCents(0.5, 0.03)).toBe(2);
    expect(taxAmountCents(10, 0.05)).toBe(1);
    expect(taxAmountCents(1, 0.5)).toBe(1);
  });

  it('is not fooled by binary floats that sit just below a half', () => {
    // 1.005 * 100 is 100.49999999999999 as a float, so Math.round would say 100.
    expect(Math.round(1.005 * 100)).toBe(100);
    expect(lineAmountCents(1, 1.005)).toBe(101);
    expect(lineAmountCents(1, 2.675)).toBe(268);
    expect(lineAmountCents(3, 0.1)).toBe(30);
    expect(lineAmountCents(0.1, 0.7)).toBe(7);
    // 1.15 * 3 is 3.4499999999999997 as a float.
    expect(lineAmountCents(3, 1.15)).toBe(345);
  });
});

describe('toCents and fromCents', () => {
  it('converts major units exactly', () => {
    expect(toCents(49.99)).toBe(4999);
    expect(toCents(0.29)).toBe(29);
    expect(toCents(1.1)).toBe(110);
    expect(toCents(-12.5)).toBe(-1250);
    expect(fromCents(4999)).toBe(49.99);
    expect(fromCents(toCents(1234567.89))).toBe(1234567.89);
  });

  it('refuses amounts finer than a cent instead of rounding them silently', () => {
    expect(() => toCents(1.005)).toThrow(RangeError);
    expect(() => toCents(0.1 + 0.2)).toThrow(RangeError);
    expect(hasAtMostDecimals(0.1 + 0.2, 2)).toBe(false);
    expect(hasAtMostDecimals(0.3, 2)).toBe(true);
    expect(hasAtMostDecimals(Number.NaN, 2)).toBe(false);
  });
});

describe('computeTotals', () => {
  it('taxes the subtotal once instead of summing per-line rounded taxes', () => {
    const items = Array.from({ length: 10 }, (_, i) => ({
      description: `Item ${i}`,
      quantity: 1,
      unit_price: 0.1,
    }));
    const perLine = items.reduce(
      (sum, item) => sum + taxAmountCents(lineAmountCents(1, item.unit_price), 0.05),
      0,
    );
    expect(perLine).toBe(10);
    const totals = computeTotals(items, [{ name: 'GST', rate: 0.05 }]);
    expect(totals.subtotal_cents).toBe(100);
    expect(totals.taxes[0]!.amount_cents).toBe(5);
    expect(totals.total_cents).toBe(105);
  });

  it('does not drift over many small lines', () => {
    const items = Array.from({ length: 99 }, () => ({
      description: 'Screw',
      quantity: 3,
      unit_price: 0.0333,
    }));
    const totals = computeTotals(items, [{ name: 'HST', rate: 0.13 }]);
    // Each line is 3 × 0.0333 = 0.0999, rounded to 0.10; the subtotal is 99 of them.
    expect(totals.lines.every((line) => line.amount_cents === 10)).toBe(true);
    expect(totals.subtotal_cents).toBe(990);
    expect(totals.tax_total_cents).toBe(129); // 9.90 × 13 % = 1.287
    expect(totals.total_cents).toBe(1119);
  });

  it('computes GST 5 % and PST 7 % separately on the subtotal', () => {
    const totals = computeTotals(
      [
        { description: 'Lawn mowing', quantity: 1, unit_price: 19.99 },
        { description: 'Edging', quantity: 2.5, unit_price: 12 },
      ],
      [
        { name: 'GST', rate: 0.05 },
        { name: 'PST', rate: 0.07 },
      ],
    );
    expect(totals.lines.map((l) => l.amount_cents)).toEqual([1999, 3000]);
    expect(totals.subtotal_cents).toBe(4999);
    expect(totals.taxes.map((t) => [t.name, t.amount_cents])).toEqual([
      ['GST', 250], // 2.4995
      ['PST', 350], // 3.4993
    ]);
    expect(totals.tax_total_cents).toBe(600);
    expect(totals.total_cents).toBe(5599);
  });

  it('handles the QST rate of 9.975 %, rounding half away from zero', () => {
    const hundred = computeTotals(
      [{ description: 'Renovation', quantity: 1, unit_price: 100 }],
      [
        { name: 'GST', rate: 0.05 },
        { name: 'QST', rate: 0.09975 },
      ],
    );
    expect(hundred.taxes.map((t) => t.amount_cents)).toEqual([500, 998]); // QST 9.975 → 9.98
    expect(hundred.total_cents).toBe(11498);

    const small = computeTotals(
      [{ description: 'Haircut', quantity: 1, unit_price: 19.99 }],
      [{ name: 'QST', rate: 0.09975 }],
    );
    expect(small.taxes[0]!.amount_cents).toBe(199); // 1.9940025
  });

  it('leaves an untaxed document at its subtotal', () => {
    const totals = computeTotals([{ description: 'Consultation', quantity: 1.25, unit_price: 80 }], []);
    expect(totals).toMatchObject({
      subtotal_cents: 10000,
      tax_total_cents: 0,
      total_cents: 10000,
      taxes: [],
    });
  });
});
