import { useState } from 'react';
import type { Booking, BookingStatus } from '../../shared/schemas/booking';
import { api, type ListPage } from '../lib/api';
import { href } from '../lib/router';
import { useFormat } from '../lib/session';
import { usePagedList } from '../lib/use-resource';
import {
  Button,
  EmptyState,
  ErrorNotice,
  PageHeader,
  SkeletonRows,
  StatusBadge,
  Table,
  Toolbar,
  useToast,
} from '../ui';
import { ListFooter, Segmented } from './common';

const FILTERS: Array<{ value: BookingStatus | 'all'; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'pending', label: 'Pending' },
  { value: 'confirmed', label: 'Confirmed' },
  { value: 'completed', label: 'Completed' },
  { value: 'cancelled', label: 'Cancelled' },
  { value: 'no_show', label: 'No-show' },
];

export function Bookings() {
  const format = useFormat();
  const toast = useToast();
  const [status, setStatus] = useState<BookingStatus | 'all'>('pending');
  const [busy, setBusy] = useState<string>();
  const query = { status: status === 'all' ? undefined : status };
  const list = usePagedList(
    (cursor) => api.get<ListPage<Booking>>('/bookings', { ...query, cursor, limit: 50 }),
    JSON.stringify(query),
  );

  const act = async (booking: Booking, action: 'confirm' | 'cancel') => {
    setBusy(`${booking.id}:${action}`);
    try {
      await api.post<Booking>(`/bookings/${encodeURIComponent(booking.id)}/${action}`);
      toast.show(action === 'confirm' ? `Booking confirmed: ${booking.service}` : 'Booking cancelled');
      list.reload();
    } catch (failure) {
      toast.show((failure as Error).message, 'error');
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <>
      <PageHeader
        title="Bookings"
        subtitle="Requests from your customers. Confirming one puts a job on the calendar."
      />
      <Toolbar>
        <Segmented label="Status" value={status} onChange={setStatus} options={FILTERS} />
      </Toolbar>
      {list.error && <ErrorNotice error={list.error} onRetry={list.reload} />}
      {list.loading && list.items.length === 0 ? (
        <div className="table-wrap">
          <SkeletonRows rows={6} />
        </div>
      ) : list.items.length === 0 && !list.error ? (
        <div className="table-wrap">
          <EmptyState title={status === 'pending' ? 'No bookings waiting' : 'No bookings here'} icon="◷">
            Bookings arrive through the v1 API (your website or booking widget).
          </EmptyState>
        </div>
      ) : (
        <>
          <Table
            caption="Bookings"
            rows={list.items}
            rowKey={(b) => b.id}
            columns={[
              {
                header: 'Service',
                cell: (b) => (
                  <>
                    <div className="cell-title">{b.service}</div>
                    <div className="cell-sub">{b.notes}</div>
                  </>
                ),
              },
              {
                header: 'Customer',
                cell: (b) => <a href={href('customers', b.customer.email)}>{b.customer.name}</a>,
              },
              { header: 'When', cell: (b) => `${format.dateTime(b.start)} – ${format.time(b.end)}` },
              { header: 'Source', cell: (b) => b.source ?? '—' },
              { header: 'Status', cell: (b) => <StatusBadge status={b.status} /> },
              {
                header: <span className="sr-only">Actions</span>,
                align: 'right',
                cell: (b) =>
                  (b.status === 'pending' || b.status === 'confirmed') && (
                    <span className="row">
                      <Button
                        size="sm"
                        variant="danger"
                        write
                        busy={busy === `${b.id}:cancel`}
                        onClick={() => act(b, 'cancel')}
                      >
                        Cancel
                      </Button>
                      {b.status === 'pending' && (
                        <Button
                          size="sm"
                          variant="primary"
                          write
                          busy={busy === `${b.id}:confirm`}
                          onClick={() => act(b, 'confirm')}
                        >
                          Confirm
                        </Button>
                      )}
                    </span>
                  ),
              },
            ]}
          />
          <ListFooter
            count={list.items.length}
            hasMore={list.hasMore}
            loading={list.loading}
            onMore={list.loadMore}
            noun="bookings"
          />
        </>
      )}
    </>
  );
}
