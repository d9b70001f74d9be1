import { BarChart } from '../charts/bar-chart';
import { portal } from '../lib/api';
import { count } from '../lib/plural';
import { href } from '../lib/router';
import { useFormat } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { Card, EmptyState, PageHeader, Stat, Table, Toolbar } from '../ui';
import { Loaded } from './common';
import { usePeriod } from './period';

export function Report() {
  const format = useFormat();
  const { period, picker } = usePeriod('this_month');
  const report = useResource(
    () => portal.get('/report', { params: { query: period } }),
    `${period.from}:${period.to}`,
  );
  return (
    <>
      <PageHeader title="Report" subtitle={`${format.date(period.from)} – ${format.date(period.to)}`} />
      <Toolbar>{picker}</Toolbar>
      <Loaded resource={report}>
        {(r) => (
          <div className="stack">
            <div className="stats">
              <Stat
                label="Payments received"
                value={format.money(r.payments.total)}
                detail={count(r.payments.count, 'payment', 'payments')}
                tone="success"
              />
              <Stat
                label="Invoiced"
                value={format.money(r.invoiced.total)}
                detail={count(r.invoiced.count, 'invoice', 'invoices')}
              />
              <Stat
                label="Average invoice"
                value={r.average_invoice === null ? '—' : format.money(r.average_invoice)}
              />
              <Stat
                label="Jobs completed"
                value={format.number(r.jobs_completed)}
                detail={`${r.new_customers} new customers`}
              />
            </div>
            <div className="grid grid-2">
              <Card title="Top customers" padded={false}>
                {r.top_customers.length === 0 ? (
                  <EmptyState title="No payments in this period" icon="$" />
                ) : (
                  <Table
                    rows={r.top_customers}
                    rowKey={(t) => t.customer.id}
                    rowHref={(t) => href('customers', t.customer.id)}
                    columns={[
                      { header: 'Customer', cell: (t) => t.customer.name },
                      { header: 'Payments', align: 'right', cell: (t) => t.payments },
                      {
                        header: 'Paid',
                        align: 'right',
                        cell: (t) => <strong>{format.money(t.paid)}</strong>,
                      },
                    ]}
                  />
                )}
              </Card>
              <Card title="By payment method">
                {r.by_payment_method.length === 0 ? (
                  <EmptyState title="No payments in this period" icon="$" />
                ) : (
                  <BarChart
                    title="Payments by method"
                    data={r.by_payment_method.map((m) => ({ label: m.method, value: m.total }))}
                    formatValue={format.compactMoney}
                  />
                )}
              </Card>
            </div>
          </div>
        )}
      </Loaded>
    </>
  );
}
