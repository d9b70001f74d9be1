import { useState } from 'react';
import { BarChart } from '../charts/bar-chart';
import { LineChart } from '../charts/line-chart';
import { portal } from '../lib/api';
import { useFormat, useSession } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { Card, PageHeader, Table, Toolbar } from '../ui';
import { Loaded, Segmented } from './common';

export function Analytics() {
  const { session } = useSession();
  const format = useFormat();
  const [interval, setInterval] = useState<'month' | 'week'>('month');
  const analytics = useResource(
    () => portal.get('/analytics', { params: { query: { interval } } }),
    interval,
  );
  const label = (start: string) =>
    interval === 'month'
      ? new Intl.DateTimeFormat(session.locale, { month: 'short', year: '2-digit', timeZone: 'UTC' }).format(
          new Date(`${start}T00:00:00Z`),
        )
      : format.shortDay(start);
  return (
    <>
      <PageHeader title="Analytics" subtitle="How the business is trending." />
      <Toolbar>
        <Segmented
          label="Interval"
          value={interval}
          onChange={setInterval}
          options={[
            { value: 'month', label: 'Monthly, last 12 months' },
            { value: 'week', label: 'Weekly' },
          ]}
        />
      </Toolbar>
      <Loaded resource={analytics}>
        {(a) => {
          const labels = a.series.map((b) => label(b.start));
          return (
            <div className="stack">
              <Card title="Revenue and invoiced">
                <LineChart
                  title="Revenue and invoiced amounts"
                  labels={labels}
                  series={[
                    { name: 'Revenue (payments)', values: a.series.map((b) => b.revenue) },
                    { name: 'Invoiced', values: a.series.map((b) => b.invoiced) },
                  ]}
                  formatValue={format.compactMoney}
                />
              </Card>
              <div className="grid grid-2">
                <Card title="Jobs completed">
                  <BarChart
                    title="Jobs completed"
                    counts
                    data={a.series.map((b, i) => ({ label: labels[i]!, value: b.jobs_completed }))}
                  />
                </Card>
                <Card title="New customers">
                  <BarChart
                    title="New customers"
                    counts
                    data={a.series.map((b, i) => ({ label: labels[i]!, value: b.new_customers }))}
                  />
                </Card>
              </div>
              <Card title="By period" padded={false}>
                <Table
                  rows={[...a.series].reverse()}
                  rowKey={(b) => b.start}
                  columns={[
                    { header: 'Period', cell: (b) => `${format.date(b.start)} – ${format.date(b.end)}` },
                    { header: 'Revenue', align: 'right', cell: (b) => format.money(b.revenue) },
                    { header: 'Invoiced', align: 'right', cell: (b) => format.money(b.invoiced) },
                    { header: 'Jobs', align: 'right', cell: (b) => b.jobs_completed },
                    { header: 'New customers', align: 'right', cell: (b) => b.new_customers },
                    {
                      header: 'Quotes won',
                      align: 'right',
                      cell: (b) =>
                        b.quote_acceptance_rate === null ? '—' : format.percent(b.quote_acceptance_rate),
                    },
                  ]}
                />
              </Card>
            </div>
          );
        }}
      </Loaded>
    </>
  );
}
