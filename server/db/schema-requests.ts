/** Tables of migrations 0023 (booking requests, their photos, review requests) and 0030 (the logo). */

export type RequestOutcome = 'confirmed' | 'converted_to_job' | 'converted_to_quote' | 'declined';

export interface BookingRequestsTable {
  booking_id: string;
  account_id: string;
  origin: 'client_hub' | 'booking_page';
  service_id: string | null;
  property_id: string | null;
  /** JSON: PreferredTime[] in the business's time zone. */
  preferred: string;
  /** JSON: what a booking-page visitor typed (name, email, phone, address); null from the client hub. */
  contact: string | null;
  outcome: RequestOutcome | null;
  decline_message: string | null;
  quote_id: string | null;
  decided_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface BookingPhotosTable {
  id: string;
  account_id: string;
  booking_id: string;
  position: number;
  content_type: string;
  size_bytes: number;
  /** Base64: rows travel through sync as JSON. */
  data: string;
  created_at: string;
}

export type ReviewRequestStatus = 'sent' | 'no_email' | 'no_link' | 'answered';

export interface ReviewRequestsTable {
  id: string;
  account_id: string;
  job_id: string;
  customer_id: string | null;
  status: ReviewRequestStatus;
  message_id: string | null;
  review_id: string | null;
  created_at: string;
  answered_at: string | null;
  updated_at: string;
}

/** What a plain message (kind 'winback' in storage) is, when it is not a win-back. */
export type MailPurpose =
  | 'review_request'
  | 'owner_alert'
  | 'booking_reply'
  | 'client_hub_reply'
  | 'on_my_way'
  | 'member_invite';

/** Migration 0030: the business's logo, one row per business (its id is the business's). */
export interface BusinessLogosTable {
  id: string;
  account_id: string;
  content_type: 'image/png' | 'image/jpeg';
  size_bytes: number;
  /** Base64: rows travel through sync as JSON. */
  data: string;
  updated_at: string;
}
