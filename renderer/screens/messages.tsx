import { useState } from 'react';
import type { OutboxMessage } from '../../shared/schemas/mail-outbox';
import { portal } from '../lib/api';
import { useFormat } from '../lib/session';
import { usePagedList } from '../lib/use-resource';
import { Button, EmptyState, PageHeader, StatusBadge, Toolbar, useToast } from '../ui';
import { Segmented } from './common';
import { MailStatus } from './mail-status';
import { isPending, MessageDialog } from './message-dialog';
import { MessageKindBadge } from './message-kind';
import { PagedTable } from './paged-table';
import { useBusyAction } from './use-busy-action';

type Status = OutboxMessage['status'];

const FILTERS: Array<{ value: Status | 'all'; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'queued', label: 'Waiting' },
  { value: 'failed', label: 'Failed' },
  { value: 'sent', label: 'Sent' },
  { value: 'cancelled', label: 'Cancelled' },
];

/** The mail outbox: every e-mail Shopdesk sends for the business, and why any of them waits. */
export function Messages() {
  const format = useFormat();
  const toast = useToast();
  const [status, setStatus] = useState<Status | 'all'>('all');
  const { busy, perform } = useBusyAction<string>();
  const list = usePagedList(
    (cursor) =>
      portal.get('/messages', {
        params: { query: { status: status === 'all' ? undefined : status, cursor, limit: 50 } },
      }),
    `messages:${status}`,
  );
  const [opened, setOpened] = useState<OutboxMessage | null>(null);

  const retry = (message: OutboxMessage) =>
    perform(message.id, async () => {
      await portal.post('/messages/{id}/retry', { params: { path: { id: message.id } } });
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
          { header: 'Details', cell: (m) => <MailStatus message={m} /> },
          {
            header: <span className="sr-only">Actions</span>,
            align: 'right',
            cell: (m) => (
              <div className="row row-end">
                <Button size="sm" onClick={() => setOpened(m)} aria-label={`Open: ${m.subject}`}>
                  Open
                </Button>
                {m.status === 'failed' && (
                  <Button
                    size="sm"
                    write
                    busy={busy === m.id}
                    onClick={() => retry(m)}
                    aria-label={`Retry: ${m.subject}`}
                  >
                    Retry
                  </Button>
                )}
              </div>
            ),
          },
        ]}
      />
      <MessageDialog
        message={opened}
        onClose={() => setOpened(null)}
        onChange={(updated) => {
          setOpened(isPending(updated) ? updated : null);
          list.reload();
        }}
      />
    </>
  );
}
