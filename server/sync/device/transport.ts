import { isAscii } from 'node:buffer';
import type { z } from 'zod';
import {
  SYNC_SCHEMA_HEADER,
  SyncJoinResponse,
  SyncLeaseResponse,
  SyncPullResponse,
  SyncPushResponse,
  SyncSnapshotPage,
  type SyncSnapshotResponse,
  type SyncUploadRequest,
  type SyncWebhookSecrets,
} from '../../../shared/schemas/sync';
import { SCHEMA_VERSION } from '../../db/database';
import { type Clock, isoNow } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import type { Hub } from '../hub/service';
import { snapshotPageText } from '../hub/snapshot';
import type { HubDevice, PushedChange, PushResult, SameCommit, SnapshotQuery } from '../hub/storage';
import { handOverWebhook } from '../hub/webhook-handover';
import { pinnedRequest } from './pinned-https';

/** How a device reaches its hub: over HTTP, or in-process when the device is the hub's own install. */
export interface HubTransport {
  /**
   * In-process, `as_pushed_after` comes too (hub/storage.ts PushResult); a hub's answer never
   * carries it. `sameCommit` runs in the push's own transaction where the hub keeps its state in
   * this install's file (hub/storage.ts), and not at all elsewhere.
   */
  push(
    changes: PushedChange[],
    sameCommit?: SameCommit,
  ): Promise<SyncPushResponse & Pick<PushResult, 'as_pushed_after'>>;
  pull(cursor: number, limit: number, waitSeconds: number, signal?: AbortSignal): Promise<SyncPullResponse>;
  lease(
    series: string[],
    size: number,
    signal?: AbortSignal,
  ): Promise<{ blocks: Array<{ series: string; start: number; end: number }> }>;
  /** A page of the hub's snapshot of the business (a first sync). */
  snapshot(query: SnapshotQuery): Promise<SyncSnapshotResponse>;
  /** Gives the hub an endpoint's signing secrets, so the hub delivers it. */
  handOverWebhook(endpointId: string, secrets: SyncWebhookSecrets): Promise<void>;
}

/**
 * The hub could not be reached or refused the request; `message` is for the owner. To this
 * server's own clients it is a 502: the fault is upstream.
 */
export class SyncError extends ApiError {
  constructor(
    message: string,
    code: string,
    readonly hubStatus?: number,
  ) {
    super(502, code, message, { type: 'api_error' });
    this.name = 'SyncError';
  }
}

const REQUEST_TIMEOUT_MS = 60_000;

/** Where the hub is, and the certificate fingerprint pinned at pairing (a LAN hub's own certificate). */
export interface HubAddress {
  url: string;
  fingerprint?: string | null;
}

interface Call {
  method: string;
  body?: string;
  credential?: string;
  signal?: AbortSignal;
}

/** What a call expects back: a wire schema of shared/schemas/sync.ts, or nothing (204). */
type Answer<T> = z.ZodType<T> | null;

async function call<T>(hub: HubAddress, path: string, init: Call, answer: Answer<T>): Promise<T> {
  const headers: Record<string, string> = { [SYNC_SCHEMA_HEADER]: String(SCHEMA_VERSION) };
  if (init.body) headers['content-type'] = 'application/json';
  if (init.credential) headers.authorization = `Bearer ${init.credential}`;
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  const url = new URL(`/api/sync/v1${path}`, hub.url);
  const send = async () => {
    if (url.protocol === 'https:' && hub.fingerprint) {
      return pinnedRequest(url, { method: init.method, headers, body: init.body, signal }, hub.fingerprint);
    }
    const reply = await fetch(url, { method: init.method, headers, body: init.body, signal });
    return { status: reply.status, text: bodyText(Buffer.from(await reply.arrayBuffer())) };
  };
  let response: { status: number; text: string };
  try {
    // A GET is sent again once: while a long write holds the event loop (a first sync's index
    // sorts, its commit), the hub may close the idle keep-alive socket unseen, failing the next request.
    response = await send().catch((error: unknown) => {
      if (init.method !== 'GET' || signal.aborted) throw error;
      return send();
    });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    const cause = (error as Error).cause ?? (error as Error).message;
    throw new SyncError(`The hub at ${hub.url} cannot be reached (${cause}).`, 'hub_unreachable');
  }
  const body = parseJson(response.text);
  if (response.status >= 400) {
    const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new SyncError(
      error?.message ?? `The hub answered ${response.status}.`,
      error?.code ?? 'hub_error',
      response.status,
    );
  }
  return readAnswer(hub, path, body, answer);
}

/**
 * A body as text. Nearly every answer is ASCII (a snapshot page's names and notes rarely are not):
 * then its bytes are its characters, and copying them costs a fraction of decoding them as UTF-8,
 * which a first sync does for every page of the business (BENCHMARKS.md, first sync).
 */
function bodyText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/** The answer's JSON; NOT_JSON when it is something else (a proxy's HTML page, a cut-off body). */
const NOT_JSON = Symbol('not JSON');

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/**
 * A hub's answer is checked against its wire schema before any of it is used: a proxy's page or a
 * hub of another make gives the owner a sync error naming what was wrong, not a crash rounds later.
 */
function readAnswer<T>(hub: HubAddress, path: string, body: unknown, answer: Answer<T>): T {
  if (answer === null) return undefined as T;
  const parsed = body === NOT_JSON ? null : answer.safeParse(body);
  if (parsed?.success) return parsed.data;
  const issue = parsed?.error.issues[0];
  const what = issue
    ? `${issue.message}${issue.path.length > 0 ? ` at ${issue.path.join('.')}` : ''}`
    : 'not JSON';
  throw new SyncError(
    `The hub at ${hub.url} sent an answer to ${path.split('?')[0]} this install cannot read (${what}).`,
    'hub_bad_answer',
  );
}

export function httpTransport(hub: HubAddress, credential: string): HubTransport {
  return {
    push: (changes) =>
      call(hub, '/push', { method: 'POST', body: JSON.stringify({ changes }), credential }, SyncPushResponse),
    pull: (cursor, limit, wait, signal) =>
      call(
        hub,
        `/pull?cursor=${cursor}&limit=${limit}&wait=${wait}`,
        { method: 'GET', credential, signal },
        SyncPullResponse,
      ),
    lease: (series, size, signal) =>
      call(
        hub,
        '/leases',
        { method: 'POST', body: JSON.stringify({ series, size }), credential, signal },
        SyncLeaseResponse,
      ),
    snapshot: ({ table, after, upTo, limit }) => {
      const query = new URLSearchParams({ table, after, limit: String(limit) });
      if (upTo !== undefined) query.set('up_to', String(upTo));
      return call(hub, `/snapshot?${query}`, { method: 'GET', credential }, SyncSnapshotPage);
    },
    handOverWebhook: (endpointId, secrets) =>
      call(
        hub,
        `/webhook-endpoints/${endpointId}/secrets`,
        { method: 'PUT', body: JSON.stringify(secrets), credential },
        null,
      ),
  };
}

/** `known` lists the businesses this folder holds already: the hub refuses to join one twice. */
export function joinHub(
  hub: HubAddress,
  code: string,
  name?: string,
  known: string[] = [],
): Promise<SyncJoinResponse> {
  return call(
    hub,
    '/join',
    { method: 'POST', body: JSON.stringify({ code, name, known_accounts: known }) },
    SyncJoinResponse,
  );
}

/** Brings a business onto a hosted hub with the operator's admin token (hub/onboarding-routes.ts). */
export function uploadBusiness(
  hub: HubAddress,
  adminToken: string,
  upload: SyncUploadRequest,
): Promise<SyncJoinResponse> {
  return call(
    hub,
    '/businesses',
    { method: 'POST', body: JSON.stringify(upload), credential: adminToken },
    SyncJoinResponse,
  );
}

/** The hub's own install talks to its hub without a network hop. */
export function localTransport(hub: Hub, device: HubDevice, clock: Clock): HubTransport {
  return {
    push: async (changes, sameCommit) => ({
      ...(await hub.push(device, changes, true, sameCommit)),
      hub_time: isoNow(clock),
    }),
    pull: async (cursor, limit, wait, signal) => ({
      ...(await hub.pull(device.account_id, cursor, limit, wait * 1000, signal)),
      hub_time: isoNow(clock),
    }),
    lease: (series, size) => hub.lease(device, series, size),
    snapshot: async (query) => JSON.parse(await snapshotPageText(hub.storage, device.account_id, query)),
    handOverWebhook: (endpointId, secrets) =>
      handOverWebhook(hub.storage, device, endpointId, secrets, isoNow(clock)),
  };
}
