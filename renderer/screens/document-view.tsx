import type { LineItem, Tax } from '../../shared/schemas/document';
import { useFormat } from '../lib/session';
import { Card } from '../ui';

/** What a saved quote or invoice carries for its lines and totals. */
interface SavedDocument {
  items: LineItem[];
  taxes: Tax[];
  subtotal: number;
  tax_total: number;
  total: number;
  currency: string;
}

/** The lines, taxes and totals of a saved quote or invoice, as the server computed them. */
export function DocumentLines({
  document: { items, taxes, subtotal, tax_total: taxTotal, total, currency },
  extra = [],
}: {
  document: SavedDocument;
  extra?: Array<{ label: string; value: number; strong?: boolean; testId?: string }>;
}) {
  const format = useFormat();
  const money = (n: number) => format.money(n, currency);
  return (
    <Card title="Items" padded={false}>
      <div className="table-wrap flat">
        <table className="table table-cards">
          <thead>
            <tr>
              <th scope="col">Description</th>
              <th scope="col" className="num">
                Qty
              </th>
              <th scope="col" className="num">
                Unit price
              </th>
              <th scope="col" className="num">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((item, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: lines are ordered and have no id
              <tr key={index}>
                <td>{item.description}</td>
                <td className="num" data-label="Qty">
                  {format.number(item.quantity)}
                </td>
                <td className="num" data-label="Unit price">
                  {money(item.unit_price)}
                </td>
                <td className="num" data-label="Amount">
                  {money(item.amount)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="card-body">
        <dl className="totals" data-testid="document-totals">
          <dt>Subtotal</dt>
          <dd data-testid="doc-subtotal">{money(subtotal)}</dd>
          {taxes.map((tax, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: taxes are ordered and have no id
            <div className="totals-row" key={index}>
              <dt>
                {tax.name} ({format.percent(tax.rate)})
              </dt>
              <dd data-testid={`doc-tax-${index}`}>{money(tax.amount)}</dd>
            </div>
          ))}
          {taxes.length > 1 && (
            <>
              <dt>Tax total</dt>
              <dd>{money(taxTotal)}</dd>
            </>
          )}
          <dt className="grand">Total</dt>
          <dd className="grand" data-testid="doc-total">
            {money(total)}
          </dd>
          {extra.map((row) => (
            <div className="totals-row" key={row.label}>
              <dt className={row.strong ? 'grand' : undefined}>{row.label}</dt>
              <dd className={row.strong ? 'grand' : undefined} data-testid={row.testId}>
                {money(row.value)}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </Card>
  );
}
