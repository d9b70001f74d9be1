import { createHmac } from 'node:crypto';

/**
 * Webhook signatures (contract part 5): hex HMAC-SHA256 of "<unix seconds>.<raw body>" with the
 * endpoint's secret, sent as X-Service-Signature: v1=<hex>. While a rotated secret is still valid
 * the header carries one v1= entry per secret, newest first, so receivers can switch at their pace.
 */

export const SIGNATURE_SCHEME = 'v1';

export function signature(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  return secrets.map((secret) => `${SIGNATURE_SCHEME}=${signature(secret, timestamp, body)}`).join(',');
}

export interface DeliveryHeadersInput {
  secrets: readonly string[];
  timestamp: number;
  body: string;
  eventId: string;
  eventType: string;
  deliveryId: string;
  attempt: number;
}

/** Every header a delivery carries, exactly as the contract names them. */
export function deliveryHeaders(input: DeliveryHeadersInput): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'Shopdesk-Webhooks/1',
    'X-Service-Timestamp': String(input.timestamp),
    'X-Service-Signature': signatureHeader(input.secrets, input.timestamp, input.body),
    'X-Service-Event-Id': input.eventId,
    'X-Service-Event-Type': input.eventType,
    'X-Service-Delivery-Id': input.deliveryId,
    'X-Service-Attempt': String(input.attempt),
  };
}
