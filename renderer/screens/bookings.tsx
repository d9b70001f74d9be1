import { useState } from 'react';
import type { Booking, BookingStatus } from '../../shared/schemas/booking';
import { portal } from '../lib/api';
import { href } from '../lib/router';
import { useFormat } from '../lib/session';
import { usePagedList } from '../lib/use-resource';
import { Button, EmptyState, PageHeader, StatusBadge, Toolbar, useToast } from '../ui';
import { ConfirmBookingDialog, NewBookingDialog } from './booking-dialogs';
import { BookingRequests } from './booking-requests';
import { Segmented } from './common';
import { PagedTable } from './paged-table';
import { useBusyAction } from './use-busy-action';

type Action = 'cancel' | 'complete' | 'no_show';

const DONE: Record<Action, string> = {
  cancel: 'Booking cancelled',
  complete: 'Booking completed',
  no_show: 'Marked as a no-show',
};

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
  const { busy, perform } = useBusyAction<string>();
  const [creating, setCreating] = useState(false);
  const [confirming, setConfirming] = useState<Booking>();
  const list = usePagedList(
    (cursor) =>
      portal.get('/bookings', {
        params: { query: { status: status === 'all' ? undefined : status, cursor, limit: 50 } },
      }),
    `bookings:${status}`,
  );

  const act = (booking: Booking, action: Action) =>
    perform(`${booking.id}:${action}`, async () => {
      await portal.post(`/bookings/{id}/${action}` as const, { params: { path: { id: booking.id } } });
      toast.show(`${DONE[action]}: ${booking.service}`);
      list.reload();
    });

  return (
    <>
      <PageHeader
        title="Bookings"
        subtitle="Requests from your customers. Confirming one puts a job on the calendar."
        actions={
          <Button variant="primary" write onClick={() => setCreating(true)}>
            New booking
          </Button>
        }
      />
      <BookingRequests onAnswered={list.reload} />
      <Toolbar>
        <Segmented label="Status" value={status} onChange={setStatus} options={FILTERS} />
      </Toolbar>
      <PagedTable
        list={list}
        caption="Bookings"
        rowKey={(b) => b.id}
        noun={['booking', 'bookings']}
        empty={
          <EmptyState title={status === 'pending' ? 'No bookings waiting' : 'No bookings here'} icon="◷">
            Bookings arrive from your booking page, your customers’ client hub and the v1 API (your website or
            booking widget), or add one taken by phone with New booking.
          </EmptyState>
        }
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
            cell: (b) => <a href={href('customers', b.customer.id)}>{b.customer.name}</a>,
          },
          { header: 'When', cell: (b) => `${format.dateTime(b.start)} – ${format.time(b.end)}` },
          { header: 'Source', cell: (b) => b.source ?? '—' },
          { header: 'Status', cell: (b) => <StatusBadge status={b.status} /> },
          {
            header: <span className="sr-only">Actions</span>,
            align: 'right',
            cell: (b) => <BookingActions booking={b} busy={busy} onAct={act} onConfirm={setConfirming} />,
          },
        ]}
      />
      <NewBookingDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(booking) => {
          setCreating(false);
          toast.show(`Booking added: ${booking.service}`);
          if (status !== 'pending' && status !== 'all') setStatus('pending');
          else list.reload();
        }}
      />
      <ConfirmBookingDialog
        booking={confirming}
        onClose={() => setConfirming(undefined)}
        onConfirmed={(booking) => {
          setConfirming(undefined);
          toast.show(
            booking.job_id ? `Booking confirmed; job created` : `Booking confirmed: ${booking.service}`,
          );
          list.reload();
        }}
      />
    </>
  );
}

function BookingActions({
  booking: b,
  busy,
  onAct,
  onConfirm,
}: {
  booking: Booking;
  busy: string | undefined;
  onAct(booking: Booking, action: Action): void;
  onConfirm(booking: Booking): void;
}) {
  const button = (action: Action, label: string, variant: 'ghost' | 'secondary' | 'primary') => (
    <Button
      size="sm"
      variant={variant}
      write
      busy={busy === `${b.id}:${action}`}
      onClick={() => onAct(b, action)}
      aria-label={`${label}: ${b.service}, ${b.customer.name}`}
    >
      {label}
    </Button>
  );
  return (
    <span className="row row-end">
      {b.job_id && (
        <a className="btn btn-ghost btn-sm" href={href('jobs', b.job_id)}>
          Open job
        </a>
      )}
      {(b.status === 'pending' || b.status === 'confirmed') && button('cancel', 'Cancel', 'ghost')}
      {b.status === 'confirmed' && button('no_show', 'No-show', 'secondary')}
      {b.status === 'confirmed' && button('complete', 'Complete', 'primary')}
      {b.status === 'pending' && (
        <Button
          size="sm"
          variant="primary"
          write
          onClick={() => onConfirm(b)}
          aria-label={`Confirm: ${b.service}, ${b.customer.name}`}
        >
          Confirm
        </Button>
      )}
    </span>
  );
}
