import { useState } from 'react';
import type { OutboxMessage } from '../../shared/schemas/mail-outbox';
import { api } from '../lib/api';
import { href } from '../lib/router';
import { useFormat } from '../lib/session';
import { useCursorList } from '../lib/use-cursor-list';
import { Button, EmptyState, PageHeader, StatusBadge, Toolbar, useToast } from '../ui';
import { Segmented } from './common';
import { MessageKindBadge } from './message-kind';
import { PagedTable } from './paged-table';
import { useBusyAction } from './use-busy-action';

type Status = OutboxMessage['status'];

const FILTERS: Array<{ value: Status | 'all'; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'queued', label: 'Waiting' },
  { value: 'failed', label: 'Failed' },
  { value: 'sent', label: 'Sent' },
];

/** Why a message is where it is, in words, with the way out when there is one. */
function Reason({ message }: { message: OutboxMessage }) {
  const format = useFormat();
  if (message.waiting_reason === 'smtp_not_configured') {
    return (
      <span className="reason reason-warning">
        SMTP is not set up — <a href={href('settings', 'business')}>Settings › Business › E-mail</a>
      </span>
    );
  }
  if (message.waiting_reason === 'offline') {
    return (
      <span className="reason reason-warning">Offline: it goes out when this computer is back online</span>
    );
  }
  if (message.status === 'failed') {
    return (
      <span className="reason reason-danger">
        {message.last_error ?? 'The mail server refused it'}
        <span className="cell-sub"> · after {message.attempts} attempt(s)</span>
      </span>
    );
  }
  if (message.status === 'sent' && message.sent_at) {
    return <span className="cell-sub">Sent {format.dateTime(message.sent_at)}</span>;
  }
  return (
    <span className="cell-sub">
      {message.last_error ? `Last try: ${message.last_error}` : 'Going out now'}
      {message.next_attempt_at && ` · next try ${format.dateTime(message.next_attempt_at)}`}
    </span>
  );
}

/** The mail outbox: every e-mail Shopdesk sends for the business, and why any of them waits. */
export function Messages() {
  const format = useFormat();
  const toast = useToast();
  const [status, setStatus] = useState<Status | 'all'>('all');
  const { busy, perform } = useBusyAction<string>();
  const list = useCursorList<OutboxMessage>('/messages', { status: status === 'all' ? undefined : status });

  const retry = (message: OutboxMessage) =>
    perform(message.id, async () => {
      await api.post<OutboxMessage>(`/messages/${encodeURIComponent(message.id)}/retry`);
      toast.show(`“${message.subject}” is queued again`);
      list.reload();
    });

  return (
    <>
      <PageHeader
        title="Messages"
        subtitle="E-mails to your customers: invoices, quotes and win-back notes. Nothing is lost while one waits."
        actions={<Button onClick={list.reload}>Refresh</Button>}
      />
      <Toolbar>
        <Segmented label="Status" value={status} onChange={setStatus} options={FILTERS} />
      </Toolbar>
      <PagedTable
        list={list}
        caption="Messages"
        rowKey={(m) => m.id}
        noun={['e-mail', 'e-mails']}
        empty={
          <EmptyState title={status === 'all' ? 'No e-mails yet' : 'No e-mails here'} icon="✉">
            Sending an invoice or a quote, or a win-back note, puts an e-mail here.
          </EmptyState>
        }
        columns={[
          {
            header: 'E-mail',
            cell: (m) => (
              <>
                <div className="cell-title">{m.subject}</div>
                <div className="cell-sub">
                  to {m.to} · {format.dateTime(m.created_at)}
                </div>
              </>
            ),
          },
          {
            header: 'Kind',
            cell: (m) => <MessageKindBadge kind={m.kind} />,
          },
          {
            header: 'Status',
            cell: (m) => (
              <StatusBadge status={m.status === 'queued' && m.waiting_reason ? 'waiting' : m.status} />
            ),
          },
          { header: 'Details', cell: (m) => <Reason message={m} /> },
          {
            header: <span className="sr-only">Actions</span>,
            align: 'right',
            cell: (m) =>
              m.status === 'failed' && (
                <Button
                  size="sm"
                  write
                  busy={busy === m.id}
                  onClick={() => retry(m)}
                  aria-label={`Retry: ${m.subject}`}
                >
                  Retry
                </Button>
              ),
          },
        ]}
      />
    </>
  );
}
