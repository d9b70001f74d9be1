import { randomInt } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { SyncDevice, SyncPairing } from '../../../shared/schemas/sync';
import { type Clock, isoNow, toIso } from '../../lib/clock';
import { ApiError, invalidState, notFound, unauthorized, validationError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { hashSecret, newSecret, SECRET_PREFIXES } from '../../lib/secrets';
import { syncedTable } from '../tables';
import { checkChangeShape } from './push-authorization';
import {
  type HubDevice,
  type HubStorage,
  type PulledRow,
  type PushedChange,
  type PushResult,
  parseStoredRow,
  type SameCommit,
  type StoredRow,
} from './storage';

const PAIRING_MINUTES = 15;
const DEVICE_CODE_ATTEMPTS = 10;
const CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/**
 * The hub's use cases (docs/sync.md): pairing, devices, push, pull, number leases. Transport-free:
 * the sync API routes call it for remote devices, and the hub's own device calls it in-process.
 */
export class Hub {
  private readonly pushed = new EventEmitter();
  /** Ends every long poll at once, so a closing server is not held open by waiting devices. */
  private readonly closing = new AbortController();
  private readonly unwatch: (() => void) | undefined;

  constructor(
    readonly storage: HubStorage,
    private readonly clock: Clock,
  ) {
    this.pushed.setMaxListeners(0);
    // Devices long-polling here must hear of pushes that other hub processes took.
    this.unwatch = storage.watchPushes?.((accountId) => this.pushed.emit(accountId));
  }

  /** Makes the business known to the hub and registers the hub's own install as its first device. */
  async adopt(accountId: string, name: string): Promise<HubDevice> {
    await this.storage.ensureBusiness(accountId, isoNow(this.clock));
    return this.addDevice(accountId, name);
  }

  /** `fingerprint`: the hub's own certificate, for devices to pin (a LAN hub serving HTTPS). */
  async createPairing(
    accountId: string,
    hubUrl: string,
    name?: string,
    fingerprint: string | null = null,
  ): Promise<SyncPairing> {
    const code = Array.from({ length: 10 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
    const now = this.clock.now();
    const expires = toIso(new Date(now.getTime() + PAIRING_MINUTES * 60_000));
    await this.storage.addPairingCode({
      hash: hashSecret(normaliseCode(code)),
      account_id: accountId,
      name: name ?? null,
      created_at: toIso(now),
      expires_at: expires,
    });
    const pairingCode = `${code.slice(0, 5)}-${code.slice(5)}`;
    const link = new URL('/sync/join', hubUrl);
    link.searchParams.set('code', pairingCode);
    if (fingerprint) link.searchParams.set('fingerprint', fingerprint);
    return {
      pairing_code: pairingCode,
      hub_url: hubUrl,
      fingerprint,
      pairing_link: link.toString(),
      expires_at: expires,
    };
  }

  /** Redeems a pairing code; `known` are the businesses the joining folder holds already. */
  async join(
    code: string,
    name?: string,
    known: string[] = [],
  ): Promise<{ device: HubDevice; credential: string }> {
    const hash = hashSecret(normaliseCode(code));
    const business = await this.storage.peekPairingCode(hash, isoNow(this.clock));
    // Checked before the code is used up, so a refused join leaves no device behind on the hub.
    if (business && known.includes(business)) {
      throw new ApiError(
        409,
        'already_joined',
        'This computer already has this business: sign in to it here instead of joining it again.',
      );
    }
    const redeemed = await this.storage.redeemPairingCode(hash, isoNow(this.clock));
    if (!redeemed) {
      throw new ApiError(
        401,
        'pairing_code_invalid',
        'This pairing code is wrong, expired or already used. Ask the hub for a new one.',
      );
    }
    const credential = newSecret(SECRET_PREFIXES.syncDevice);
    const device = await this.addDevice(redeemed.account_id, name ?? redeemed.name ?? 'Device', credential);
    return { device, credential };
  }

  private async addDevice(
    accountId: string,
    name: string,
    credential = newSecret(SECRET_PREFIXES.syncDevice),
  ) {
    // Devices joining at once (through two hub processes, say) may pick the same letter: the
    // storage keeps the first, and the others take the next letters.
    for (let attempt = 0; attempt < DEVICE_CODE_ATTEMPTS; attempt++) {
      const existing = await this.storage.listDevices(accountId);
      const device: HubDevice = {
        id: newId('dev', this.clock.now().getTime()),
        account_id: accountId,
        name,
        code: deviceCode(existing.length),
        last_local_seq: 0,
        created_at: isoNow(this.clock),
        last_seen_at: null,
        revoked_at: null,
      };
      if (await this.storage.addDevice({ ...device, credential_hash: hashSecret(credential) })) return device;
    }
    throw new ApiError(503, 'busy', 'Too many devices are joining this business at once: try again.');
  }

  async authenticate(authorization: string | undefined): Promise<HubDevice> {
    const credential = authorization?.match(/^Bearer (\S+)$/)?.[1];
    if (!credential?.startsWith(SECRET_PREFIXES.syncDevice)) {
      throw unauthorized('Send the device credential as Authorization: Bearer sd_sync_…');
    }
    const device = await this.storage.deviceByCredential(hashSecret(credential));
    if (!device) throw unauthorized('Unknown device credential: pair this device again.');
    if (device.revoked_at) {
      throw new ApiError(
        401,
        'device_revoked',
        'This device was removed from the business on the hub: pair it again.',
      );
    }
    await this.storage.touchDevice(device.id, isoNow(this.clock));
    return device;
  }

  /**
   * `operator`: the hub's own install pushes (transport.ts), where the operator's changes are made;
   * it may pass `sameCommit` too (storage.ts).
   */
  async push(
    device: HubDevice,
    changes: PushedChange[],
    operator = false,
    sameCommit?: SameCommit,
  ): Promise<PushResult> {
    const unknown = changes.findIndex((change) => !syncedTable(change.table));
    if (unknown >= 0) {
      throw validationError(`${changes[unknown]!.table} is not a synced table`, `changes[${unknown}].table`);
    }
    for (const [index, change] of changes.entries()) checkChangeShape(change, index);
    const { as_pushed_after, ...result } = await this.storage.push(
      device.account_id,
      device.id,
      changes.map(signedBy(device)),
      operator,
      operator ? sameCommit : undefined,
    );
    if (result.accepted > 0) this.pushed.emit(device.account_id);
    // Told to the hub's own install only (in-process): a device's answer keeps the wire shape.
    return operator && as_pushed_after !== undefined ? { ...result, as_pushed_after } : result;
  }

  /** Rows after the cursor; with `waitMs`, holds on until something arrives or the time is up. */
  async pull(
    accountId: string,
    cursor: number,
    limit: number,
    waitMs = 0,
    signal?: AbortSignal,
  ): Promise<{ rows: PulledRow[]; cursor: number; has_more: boolean }> {
    const page = await this.pullStored(accountId, cursor, limit, waitMs, signal);
    return { ...page, rows: page.rows.map(parseStoredRow) };
  }

  /** pull, with each row's values and clocks as the stored JSON text (what the sync API sends). */
  async pullStored(
    accountId: string,
    cursor: number,
    limit: number,
    waitMs = 0,
    signal?: AbortSignal,
  ): Promise<{ rows: StoredRow[]; cursor: number; has_more: boolean }> {
    let page = await this.storage.pull(accountId, cursor, limit);
    if (page.rows.length === 0 && waitMs > 0 && !signal?.aborted && !this.closing.signal.aborted) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.pushed.off(accountId, done);
          signal?.removeEventListener('abort', done);
          this.closing.signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, waitMs);
        this.pushed.on(accountId, done);
        signal?.addEventListener('abort', done);
        this.closing.signal.addEventListener('abort', done);
      });
      page = await this.storage.pull(accountId, cursor, limit);
    }
    const last = page.rows.at(-1)?.seq ?? cursor;
    return { rows: page.rows, cursor: last, has_more: last < page.last_seq };
  }

  shutdown(): void {
    this.closing.abort();
    this.unwatch?.();
  }

  async lease(device: HubDevice, series: string[], size: number) {
    const now = isoNow(this.clock);
    const blocks = [];
    for (const name of series) {
      blocks.push({
        series: name,
        ...(await this.storage.leaseNumbers(device.account_id, device.id, name, size, now)),
      });
    }
    return { blocks };
  }

  async devices(accountId: string, hubDeviceId: string): Promise<SyncDevice[]> {
    return (await this.storage.listDevices(accountId)).map((d) => ({
      id: d.id,
      name: d.name,
      code: d.code,
      role: d.id === hubDeviceId ? 'hub' : 'device',
      created_at: d.created_at,
      last_seen_at: d.last_seen_at,
      revoked_at: d.revoked_at,
    }));
  }

  async revoke(accountId: string, deviceId: string, hubDeviceId: string): Promise<void> {
    if (deviceId === hubDeviceId) throw invalidState('The hub cannot remove itself.');
    if (!(await this.storage.revokeDevice(accountId, deviceId, isoNow(this.clock)))) {
      throw notFound(`No active device ${deviceId}`);
    }
  }
}

/**
 * Names the pushing device beside each column's actor: the hub knows who pushed, and a device's
 * name is what a record's history shows elsewhere (docs/crew-design.md, "Who made each change").
 */
function signedBy(device: HubDevice) {
  return (change: PushedChange): PushedChange => {
    const authors = change.state.a;
    if (!authors) return change;
    // Only the columns the change writes: anything else would ride along with the row for nothing.
    const a = Object.fromEntries(
      Object.entries(authors)
        .filter(([column]) => column in change.state.v)
        .map(([column, { by }]) => [column, { by, on: device.name }]),
    );
    return { ...change, state: { ...change.state, a } };
  };
}

function normaliseCode(code: string): string {
  return code.toUpperCase().replace(/[^0-9A-Z]/g, '');
}

/** A, B, …, Z, AA, AB, …: short enough to mark a number (INV-B-0001). */
export function deviceCode(index: number): string {
  let code = '';
  let n = index;
  do {
    code = String.fromCharCode(65 + (n % 26)) + code;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return code;
}
