import { useState } from 'react';
import type { SalesTaxLine } from '../../shared/schemas/sales-tax';
import { portal, portalUrl } from '../lib/api';
import { addDays, todayIn } from '../lib/format';
import { count } from '../lib/plural';
import { useFormat, useSession } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { Card, EmptyState, Field, LinkButton, PageHeader, Select, Stat, Table, Toolbar } from '../ui';
import { AccountingDownloads } from './accounting-downloads';
import { Loaded, Segmented } from './common';

type Basis = 'accrual' | 'cash';

interface Quarter {
  label: string;
  from: string;
  to: string;
}

/** The quarter holding `today` and the seven before it, newest first. */
function recentQuarters(today: string): Quarter[] {
  const year = Number(today.slice(0, 4));
  const index = Math.floor((Number(today.slice(5, 7)) - 1) / 3);
  return Array.from({ length: 8 }, (_, back) => {
    const q = (((index - back) % 4) + 4) % 4;
    const y = year + Math.floor((index - back) / 4);
    const from = `${y}-${String(q * 3 + 1).padStart(2, '0')}-01`;
    const next = q === 3 ? `${y + 1}-01-01` : `${y}-${String(q * 3 + 4).padStart(2, '0')}-01`;
    return { label: `Q${q + 1} ${y}`, from, to: addDays(next, -1) };
  });
}

/** What the owner files for a quarter: each tax by rate, with the sales it was charged on. */
export function SalesTax() {
  const format = useFormat();
  const { session } = useSession();
  const quarters = recentQuarters(todayIn(session.timezone));
  const [chosen, setChosen] = useState(quarters[0]!.from);
  const [basis, setBasis] = useState<Basis>('accrual');
  const quarter = quarters.find((q) => q.from === chosen) ?? quarters[0]!;
  const query = { from: quarter.from, to: quarter.to, basis };
  const report = useResource(
    () => portal.get('/reports/sales-tax', { params: { query: query } }),
    `${quarter.from}:${basis}`,
  );
  return (
    <>
      <PageHeader
        title="Sales tax"
        subtitle={`${quarter.label}: ${format.date(quarter.from)} – ${format.date(quarter.to)}`}
        actions={
          <LinkButton href={portalUrl('/reports/sales-tax', { ...query, format: 'csv' })} download>
            Download CSV
          </LinkButton>
        }
      />
      <Toolbar>
        <Field label="Quarter">
          <Select value={quarter.from} onChange={(e) => setChosen(e.target.value)}>
            {quarters.map((q) => (
              <option key={q.from} value={q.from}>
                {q.label}
              </option>
            ))}
          </Select>
        </Field>
        <Segmented<Basis>
          label="Basis"
          value={basis}
          onChange={setBasis}
          options={[
            { value: 'accrual', label: 'Invoices issued (accrual)' },
            { value: 'cash', label: 'Payments received (cash)' },
          ]}
        />
      </Toolbar>
      <Loaded resource={report}>
        {(r) => (
          <div className="stack">
            <div className="stats">
              <Stat
                label="Tax"
                value={format.money(r.totals.tax)}
                detail={count(r.taxes.length, 'tax and rate', 'taxes and rates')}
                tone="success"
              />
              <Stat
                label="Sales before tax"
                value={format.money(r.totals.sales)}
                detail={count(r.totals.invoices, 'invoice', 'invoices')}
              />
              <Stat label="Untaxed sales" value={format.money(r.totals.untaxed_sales)} />
              <Stat
                label={r.basis === 'cash' ? 'Payments received' : 'Invoiced'}
                value={format.money(r.totals.total)}
                detail={r.basis === 'cash' ? count(r.totals.payments, 'payment', 'payments') : undefined}
              />
            </div>
            <Card title="By tax and rate" padded={false}>
              {r.taxes.length === 0 ? (
                <EmptyState title="No tax charged in this quarter" icon="%" />
              ) : (
                <Table<SalesTaxLine>
                  caption="Sales tax by tax and rate"
                  rows={r.taxes}
                  rowKey={(t) => `${t.name}:${t.rate}`}
                  columns={[
                    { header: 'Tax', cell: (t) => <strong>{t.name}</strong> },
                    { header: 'Rate', align: 'right', cell: (t) => format.percent(t.rate) },
                    { header: 'Registration no.', cell: (t) => t.registration_number ?? '—' },
                    { header: 'Taxable sales', align: 'right', cell: (t) => format.money(t.taxable_sales) },
                    { header: 'Tax', align: 'right', cell: (t) => <strong>{format.money(t.tax)}</strong> },
                    { header: 'Invoices', align: 'right', cell: (t) => t.invoices },
                  ]}
                />
              )}
            </Card>
            <p className="muted">
              {r.basis === 'cash'
                ? 'Each payment carries its share of its invoice’s tax; an invoice’s payments add up to its tax to the cent.'
                : 'Invoices sent or paid, dated in the quarter. Drafts and void invoices are left out.'}{' '}
              Registration numbers are set under Settings › Business.
            </p>
            <AccountingDownloads from={quarter.from} to={quarter.to} />
          </div>
        )}
      </Loaded>
    </>
  );
}
