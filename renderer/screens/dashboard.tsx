import type { Dashboard as DashboardData } from '../../shared/schemas/overview';
import { wallTime } from '../../shared/time-zone';
import { BarChart } from '../charts/bar-chart';
import { portal } from '../lib/api';
import { count } from '../lib/plural';
import { href } from '../lib/router';
import { Offered, useFormat, useSession } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { Card, EmptyState, LinkButton, PageHeader, Stat, StatusBadge } from '../ui';
import { BackupAlert } from './backup-alert';
import { Loaded, Stars } from './common';
import { CustomersWaiting } from './customers-waiting';
import { RequestsWaitingNotice } from './requests-waiting';

/** Good morning, afternoon or evening by the clock where the business is, not where this computer is. */
function greeting(now: Date, timeZone: string): string {
  const { hour } = wallTime(now, timeZone);
  if (hour >= 5 && hour < 12) return 'Good morning';
  if (hour >= 12 && hour < 18) return 'Good afternoon';
  return 'Good evening';
}

export function Dashboard() {
  const { session } = useSession();
  const format = useFormat();
  const dashboard = useResource(() => portal.get('/dashboard'), 'dashboard');
  const monthLabel = (month: string) =>
    new Intl.DateTimeFormat(session.locale, { month: 'short', timeZone: 'UTC' }).format(
      new Date(`${month}-01T00:00:00Z`),
    );

  return (
    <>
      <PageHeader
        title={`${greeting(new Date(), session.timezone)}, ${session.business_name}`}
        name="Dashboard"
        subtitle={dashboard.data ? format.date(dashboard.data.today) : 'Your business at a glance'}
        actions={
          <>
            <LinkButton href="#/jobs?new=1">New job</LinkButton>
            <LinkButton href="#/invoices/new" variant="primary">
              New invoice
            </LinkButton>
          </>
        }
      />
      <Offered needs="admin">
        <BackupAlert />
      </Offered>
      <RequestsWaitingNotice />
      <CustomersWaiting />
      <Loaded resource={dashboard}>
        {(data) => (
          <div className="stack" data-testid="dashboard-loaded">
            <div className="stats">
              <Stat
                label="Revenue this month"
                value={format.money(data.revenue_this_month.amount)}
                detail={count(data.revenue_this_month.count, 'payment', 'payments')}
                tone="success"
              />
              <Stat
                label="Owed to you"
                value={format.money(data.outstanding.amount)}
                detail={count(data.outstanding.count, 'open invoice', 'open invoices')}
              />
              <Stat
                label="Overdue"
                value={format.money(data.overdue.amount)}
                detail={count(data.overdue.count, 'invoice past due', 'invoices past due')}
                tone={data.overdue.count > 0 ? 'danger' : undefined}
              />
              <Stat
                label="Open quotes"
                value={format.money(data.open_quotes.amount)}
                detail={`${count(data.open_quotes.count, 'quote', 'quotes')} waiting for an answer`}
              />
            </div>
            <div className="grid grid-3">
              <Card title="Revenue, last 6 months">
                <BarChart
                  title="Revenue by month"
                  data={data.revenue_by_month.map((m) => ({ label: monthLabel(m.month), value: m.revenue }))}
                  formatValue={format.compactMoney}
                />
              </Card>
              <Card title="Reviews" actions={<a href="#/reviews">All reviews</a>}>
                <div className="stat-value">
                  {data.average_rating === null ? '—' : data.average_rating.toFixed(1)}{' '}
                  {data.average_rating !== null && <Stars rating={data.average_rating} />}
                </div>
                <p className="muted">
                  {count(data.review_count, 'review', 'reviews')} ·{' '}
                  {count(data.new_customers_this_month, 'new customer', 'new customers')} this month
                </p>
                {data.recent_reviews.length === 0 ? (
                  <p className="muted">No reviews yet.</p>
                ) : (
                  <ul className="plain-list">
                    {data.recent_reviews.map((review) => (
                      <li key={review.id}>
                        <Stars rating={review.rating} />{' '}
                        <strong>{review.customer?.name ?? 'Anonymous'}</strong>
                        {review.comment && <p className="quote-text">“{review.comment}”</p>}
                      </li>
                    ))}
                  </ul>
                )}
              </Card>
            </div>
            <div className="grid grid-2">
              <Card title="Today's jobs" actions={<a href="#/jobs">Calendar</a>} padded={false}>
                <JobList jobs={data.jobs_today} empty="Nothing scheduled today." />
              </Card>
              <Card title="Coming up this week" padded={false}>
                <JobList jobs={data.jobs_upcoming} empty="Nothing scheduled in the next 7 days." withDay />
              </Card>
            </div>
          </div>
        )}
      </Loaded>
    </>
  );
}

function JobList({
  jobs,
  empty,
  withDay = false,
}: {
  jobs: DashboardData['jobs_today'];
  empty: string;
  withDay?: boolean;
}) {
  const format = useFormat();
  if (jobs.length === 0) return <EmptyState title={empty} icon="☀" />;
  return (
    <ul className="job-list">
      {jobs.map((job) => (
        <li key={job.id}>
          <a href={href('jobs', job.job_number)}>
            <span className="job-time">
              {job.scheduled_start
                ? withDay
                  ? format.dateTime(job.scheduled_start)
                  : format.time(job.scheduled_start)
                : '—'}
            </span>
            <span className="job-main">
              <strong>{job.title}</strong>
              <span className="cell-sub">
                {job.customer.name}
                {job.assignees.length > 0 && ` · ${job.assignees.join(', ')}`}
              </span>
            </span>
            <StatusBadge status={job.status} />
          </a>
        </li>
      ))}
    </ul>
  );
}
