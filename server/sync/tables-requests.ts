import { ownAccount, type SyncedTable } from './synced-table';

/** Booking requests, their photos and review requests (migration 0023): synced, so every device and the hub hold them. */
export const REQUEST_TABLES: SyncedTable[] = [
  {
    name: 'booking_requests',
    pk: ['booking_id'],
    account: ownAccount,
    // The first decision on a request wins: a later one made elsewhere on an open copy is refused by the state check there.
    writable: [
      'booking_id',
      'account_id',
      'origin',
      'service_id',
      'property_id',
      'preferred',
      'contact',
      'outcome',
      'decline_message',
      'quote_id',
      'decided_at',
      'created_at',
      'updated_at',
    ],
    parents: { booking_id: ['bookings'], property_id: ['properties'], quote_id: ['quotes'] },
  },
  {
    // Photos travel with their request so the crew's devices have them.
    name: 'booking_photos',
    pk: ['id'],
    account: ownAccount,
    writable: [
      'id',
      'account_id',
      'booking_id',
      'position',
      'content_type',
      'size_bytes',
      'data',
      'created_at',
    ],
    parents: { booking_id: ['bookings'] },
  },
  {
    // Keyed by the job (its id is derived from the job's), so a visit's customer is asked once.
    name: 'review_requests',
    pk: ['id'],
    account: ownAccount,
    refs: { customer_id: 'customers' },
    ranks: { status: { sent: 0, no_email: 0, no_link: 0, answered: 1 } },
    writable: [
      'id',
      'account_id',
      'job_id',
      'customer_id',
      'status',
      'message_id',
      'review_id',
      'created_at',
      'answered_at',
      'updated_at',
    ],
    parents: {
      job_id: ['jobs'],
      customer_id: ['customers'],
      message_id: ['mail_messages'],
      review_id: ['reviews'],
    },
  },
];
