import { describe, expect, it } from 'vitest';
import { retryDelayMs, V1_WEBHOOK_SCHEDULE } from '../domain/retry-schedules';
import { deliveryHeaders, signature, signatureHeader } from './signing';

// Computed with: printf '%s' '<timestamp>.<body>' | openssl dgst -sha256 -hmac '<secret>' -hex
const BODY = '{"id":"evt_1","type":"invoice.paid"}';
const TIMESTAMP = 1767225600;
const SECRET = 'whsec_0123456789abcdefghijABCDEFGHIJKL';
const PREVIOUS = 'whsec_previousPreviousPreviousPrevi';
const EXPECTED = '76eb9a2e8e6a751407b87165af8ed002ce14a13459187feaae20f7ca17592dfc';
const EXPECTED_PREVIOUS = '5669378260c34edf20db027c41c30ce69329c893f9e76c13b508b3aa2b58f3f9';

describe('webhook signing', () => {
  it('is hex HMAC-SHA256 of "<timestamp>.<body>"', () => {
    expect(signature(SECRET, TIMESTAMP, BODY)).toBe(EXPECTED);
    expect(signature(SECRET, TIMESTAMP + 1, BODY)).not.toBe(EXPECTED);
  });

  it('carries one v1= entry per valid secret, newest first', () => {
    expect(signatureHeader([SECRET], TIMESTAMP, BODY)).toBe(`v1=${EXPECTED}`);
    expect(signatureHeader([SECRET, PREVIOUS], TIMESTAMP, BODY)).toBe(
      `v1=${EXPECTED},v1=${EXPECTED_PREVIOUS}`,
    );
  });

  it('names every header of the contract', () => {
    expect(
      deliveryHeaders({
        secrets: [SECRET],
        timestamp: TIMESTAMP,
        body: BODY,
        eventId: 'evt_1',
        eventType: 'invoice.paid',
        deliveryId: 'dlv_1',
        attempt: 3,
      }),
    ).toMatchObject({
      'Content-Type': 'application/json',
      'X-Service-Timestamp': '1767225600',
      'X-Service-Signature': `v1=${EXPECTED}`,
      'X-Service-Event-Id': 'evt_1',
      'X-Service-Event-Type': 'invoice.paid',
      'X-Service-Delivery-Id': 'dlv_1',
      'X-Service-Attempt': '3',
    });
  });
});

describe('retry schedule', () => {
  it('applies the jitter factor to v1 waits and ends after the sixth retry', () => {
    expect(retryDelayMs(V1_WEBHOOK_SCHEDULE, 1, () => 0.9)).toBe(54_000);
    expect(retryDelayMs(V1_WEBHOOK_SCHEDULE, 6, () => 1.1)).toBe(Math.round(1024 * 60_000 * 1.1));
    expect(retryDelayMs(V1_WEBHOOK_SCHEDULE, 7, () => 1)).toBeNull();
  });
});
