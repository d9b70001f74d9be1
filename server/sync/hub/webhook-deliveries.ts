import type { RowState } from '../merge';

/**
 * Hub-owned webhook deliveries (docs/sync.md, "Webhooks delivered by the hub"): endpoints whose
 * owner handed them to the hub (`delivering_node` = HUB_DELIVERS) are delivered by the hub's
 * processes from the synced rows they hold, so every event of the business goes out once from one
 * place, whichever device raised it. The endpoint row and the events are the business's synced
 * rows; what only the hub keeps is here: the signing secrets the owner's install sent for the
 * endpoint, how far its events were queued, and the deliveries.
 */

export interface EndpointSecrets {
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
}

/** An endpoint handed to the hub, with its synced row as the hub holds it (undefined until it arrives). */
export interface HandedEndpoint extends EndpointSecrets {
  account_id: string;
  endpoint_id: string;
  /** The business's hub sequence up to which its events were queued (from its handover on). */
  queued_through: number;
  state: RowState | undefined;
}

export interface QueuedDelivery {
  event_id: string;
  event_type: string;
  max_attempts: number;
}

export type HubDeliveryStatus = 'pending' | 'sending' | 'succeeded' | 'failed';

export interface HubDelivery {
  id: string;
  account_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: HubDeliveryStatus;
  attempts: number;
  max_attempts: number;
  next_attempt_at: string | null;
  last_response_code: number | null;
  last_error: string | null;
}

/** A claimed delivery with what sending it needs, read in the claim's transaction. */
export interface ClaimedDelivery extends HubDelivery, EndpointSecrets {
  endpoint: RowState | undefined;
  event: RowState | undefined;
  account: RowState | undefined;
}

export interface DeliveryOutcome {
  status: 'succeeded' | 'pending' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  response_code: number | null;
  error: string | null;
  now: string;
}

export interface HubDeliveryStorage {
  /**
   * Records (or replaces, after a rotation) the secrets of an endpoint handed to the hub. The first
   * handover marks the endpoint at the business's hub sequence: the hub learned of the endpoint
   * then, so it gets the events that reach the hub after that, whatever their raisers' clocks said.
   */
  handOver(accountId: string, endpointId: string, secrets: EndpointSecrets, now: string): Promise<void>;
  handedEndpoints(): Promise<HandedEndpoint[]>;
  /** Events (rows of `events`) of the business after `seq`, in hub order. */
  eventsAfter(
    accountId: string,
    seq: number,
    limit: number,
  ): Promise<Array<{ seq: number; state: RowState }>>;
  /**
   * Queues deliveries of events to an endpoint, at most one per event however often it is asked,
   * and moves the endpoint's mark to `through`, in one transaction.
   */
  queue(
    accountId: string,
    endpointId: string,
    deliveries: QueuedDelivery[],
    through: number,
    now: string,
  ): Promise<void>;
  /**
   * Takes up to `max` deliveries due at `due` (pending, or sending with a lapsed claim) and marks
   * them sending until `claimUntil`. Processes claiming at once never take the same delivery.
   */
  claim(due: string, claimUntil: string, max: number): Promise<ClaimedDelivery[]>;
  /** Records an attempt of a delivery still claimed; false when the claim was lost meanwhile. */
  record(id: string, outcome: DeliveryOutcome): Promise<boolean>;
  deliveries(accountId: string, endpointId: string): Promise<HubDelivery[]>;
}
