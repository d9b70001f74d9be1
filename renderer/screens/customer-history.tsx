import type { CustomerHistory } from '../../shared/schemas/overview';
import { href } from '../lib/router';
import { useFormat } from '../lib/session';
import { Card, EmptyState, StatusBadge } from '../ui';
import { MailStatus } from './mail-status';
import { MessageKindBadge } from './message-kind';
import { ReviewItem } from './review-item';
import { TableCard } from './table-card';

/** A customer's jobs, documents, reviews and e-mails, as GET /customers/{email} returns them. */
export function CustomerHistoryCards({ history }: { history: CustomerHistory }) {
  const format = useFormat();
  return (
    <>
      <TableCard
        title="Jobs"
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
                ? `Done ${format.dateOf(j.completed_at)}`
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
        empty={<EmptyState title="No jobs yet" icon="▦" />}
      />
      <TableCard
        title="Invoices"
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
        empty={<EmptyState title="No invoices yet" icon="▤" />}
      />
      <TableCard
        title="Quotes"
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
        empty={<EmptyState title="No quotes yet" icon="✎" />}
      />
      <TableCard
        title="E-mails"
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
            cell: (m) => <MessageKindBadge kind={m.kind} />,
          },
          { header: 'Status', cell: (m) => <StatusBadge status={m.status} /> },
          { header: 'Details', cell: (m) => <MailStatus message={m} /> },
          { header: 'Written', cell: (m) => format.dateTime(m.created_at) },
        ]}
        empty={
          <EmptyState title="No e-mails yet" icon="✉">
            Invoices, quotes and win-back notes you send appear here.
          </EmptyState>
        }
        note={
          history.messages.length > 0 && (
            <p className="card-note">
              Waiting or failed e-mails: <a href="#/messages">Messages</a>
            </p>
          )
        }
      />
      <Card title="Reviews" padded={false}>
        {history.reviews.length === 0 ? (
          <EmptyState title="No reviews yet" icon="★" />
        ) : (
          <ul className="review-list">
            {history.reviews.map((review) => (
              <ReviewItem key={review.id} review={review} />
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}
