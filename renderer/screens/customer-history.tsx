import type { CustomerHistory } from '../../shared/schemas/overview';
import { href } from '../lib/router';
import { useFormat } from '../lib/session';
import { Badge, Card, EmptyState, StatusBadge, Table } from '../ui';
import { Stars } from './common';

const MESSAGE_KINDS: Record<CustomerHistory['messages'][number]['kind'], string> = {
  invoice: 'Invoice',
  quote: 'Quote',
  winback: 'Win-back',
};

/** A customer's jobs, documents, reviews and e-mails, as GET /customers/{email} returns them. */
export function CustomerHistoryCards({ history }: { history: CustomerHistory }) {
  const format = useFormat();
  return (
    <>
      <Card title="Jobs" padded={false}>
        {history.jobs.length === 0 ? (
          <EmptyState title="No jobs yet" icon="▦" />
        ) : (
          <Table
            caption="Jobs"
            rows={history.jobs}
            rowKey={(j) => j.id}
            rowHref={(j) => href('jobs', j.job_number)}
            columns={[
              { header: 'Job', cell: (j) => <span className="cell-title">{j.job_number}</span> },
              { header: 'Title', cell: (j) => j.title },
              {
                header: 'When',
                cell: (j) =>
                  j.completed_at
                    ? `Done ${format.date(j.completed_at)}`
                    : j.scheduled_start
                      ? format.dateTime(j.scheduled_start)
                      : 'Unscheduled',
              },
              { header: 'Status', cell: (j) => <StatusBadge status={j.status} /> },
              {
                header: 'Price',
                align: 'right',
                cell: (j) => (j.price === null ? '—' : format.money(j.price)),
              },
            ]}
          />
        )}
      </Card>
      <Card title="Invoices" padded={false}>
        {history.invoices.length === 0 ? (
          <EmptyState title="No invoices yet" icon="▤" />
        ) : (
          <Table
            caption="Invoices"
            rows={history.invoices}
            rowKey={(i) => i.id}
            rowHref={(i) => href('invoices', i.number)}
            columns={[
              { header: 'Number', cell: (i) => <span className="cell-title">{i.number}</span> },
              { header: 'Issued', cell: (i) => format.date(i.issue_date) },
              { header: 'Due', cell: (i) => format.date(i.due_date) },
              { header: 'Status', cell: (i) => <StatusBadge status={i.status} /> },
              { header: 'Total', align: 'right', cell: (i) => format.money(i.total) },
              { header: 'Balance', align: 'right', cell: (i) => format.money(i.balance) },
            ]}
          />
        )}
      </Card>
      <Card title="Quotes" padded={false}>
        {history.quotes.length === 0 ? (
          <EmptyState title="No quotes yet" icon="✎" />
        ) : (
          <Table
            caption="Quotes"
            rows={history.quotes}
            rowKey={(q) => q.id}
            rowHref={(q) => href('quotes', q.number)}
            columns={[
              { header: 'Number', cell: (q) => <span className="cell-title">{q.number}</span> },
              { header: 'Issued', cell: (q) => format.date(q.issue_date) },
              { header: 'Valid until', cell: (q) => format.date(q.valid_until) },
              { header: 'Status', cell: (q) => <StatusBadge status={q.status} /> },
              { header: 'Total', align: 'right', cell: (q) => format.money(q.total) },
            ]}
          />
        )}
      </Card>
      <Card title="E-mails" padded={false}>
        {history.messages.length === 0 ? (
          <EmptyState title="No e-mails yet" icon="✉">
            Invoices, quotes and win-back notes you send appear here.
          </EmptyState>
        ) : (
          <Table
            caption="E-mails"
            rows={history.messages}
            rowKey={(m) => m.id}
            columns={[
              {
                header: 'E-mail',
                cell: (m) => (
                  <>
                    <div className="cell-title">{m.subject}</div>
                    <div className="cell-sub">to {m.to}</div>
                  </>
                ),
              },
              {
                header: 'Kind',
                cell: (m) => (
                  <Badge tone={m.kind === 'winback' ? 'accent' : 'neutral'}>{MESSAGE_KINDS[m.kind]}</Badge>
                ),
              },
              { header: 'Status', cell: (m) => <StatusBadge status={m.status} /> },
              {
                header: 'When',
                cell: (m) => format.dateTime(m.sent_at ?? m.created_at),
              },
            ]}
          />
        )}
        {history.messages.length > 0 && (
          <p className="card-note">
            Waiting or failed e-mails: <a href="#/messages">Messages</a>
          </p>
        )}
      </Card>
      <Card title="Reviews" padded={false}>
        {history.reviews.length === 0 ? (
          <EmptyState title="No reviews yet" icon="★" />
        ) : (
          <ul className="review-list">
            {history.reviews.map((review) => (
              <li key={review.id}>
                <div className="spread">
                  <span>
                    <Stars rating={review.rating} />
                    {review.source && <span className="cell-sub"> · {review.source}</span>}
                  </span>
                  <span className="cell-sub">{format.dateTime(review.received_at)}</span>
                </div>
                {review.comment && <p className="quote-text">“{review.comment}”</p>}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}
