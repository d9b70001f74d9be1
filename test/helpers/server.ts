import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { type ApiPlan, createAccount, type Plan, updateConfig } from '../../server/domain/accounts';
import { createKey } from '../../server/domain/api-keys';
import type { EventBody, EventType } from '../../server/domain/events';
import { createSignInToken } from '../../server/domain/sessions';
import { type RunningServer, type ServerOptions, startServer } from '../../server/index';
import type { Clock } from '../../server/lib/clock';
import type { ApiResponse, Method, PortalPaths, Typed, TypedUrl, V1Paths } from './api-responses';
import { copyMigratedTemplate } from './migrated-database';
import { bundlePath } from './process-bundles';

export type { ApiResponse } from './api-responses';

/** A list answer of the API, as every list route pages it. */
export interface ListPage<T> {
  data: T[];
  pagination: { has_more: boolean; next_cursor: string | null };
}

export interface RequestOptions {
  body?: unknown;
  /** A raw body sent as is (for malformed JSON and content-type tests). */
  rawBody?: string;
  key?: string | null;
  headers?: Record<string, string>;
}

/** An event as the outbox stored it, its object typed by the caller. */
export type StoredEvent<T = Record<string, unknown>> = Omit<EventBody, 'data'> & { data: { object: T } };

export interface TestAccount {
  clientId: string;
  portalKey: string;
  v1Key: string;
  /**
   * Calls the portal API of this account: path is relative to /api/portal/{client_id}. Without a type
   * argument the answer is typed from the OpenAPI document by method and path (see api-responses.ts).
   */
  portal<M extends Method, P extends string>(
    method: M,
    path: P,
    options?: RequestOptions,
  ): Promise<Typed<PortalPaths, M, P>>;
  portal<T>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** Calls the v1 API: path is relative to /api/v1, the answer typed as `portal`'s is. */
  v1<M extends Method, P extends string>(
    method: M,
    path: P,
    options?: RequestOptions,
  ): Promise<Typed<V1Paths, M, P>>;
  v1<T>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** A session cookie for the UI, as the sign-in link would set it. */
  signIn(): Promise<string>;
  /** The events this account raised, oldest first; `type` keeps one kind. */
  events<T = Record<string, unknown>>(type?: EventType): Promise<Array<StoredEvent<T>>>;
}

export interface TestServer extends RunningServer {
  dataDir: string;
  /** Calls any route by its full path; portal and v1 paths are typed as `portal`'s are. */
  request<M extends Method, P extends string>(
    method: M,
    path: P,
    options?: RequestOptions,
  ): Promise<TypedUrl<M, P>>;
  request<T>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  createAccount(options?: { business?: string; plan?: Plan; apiPlan?: ApiPlan }): Promise<TestAccount>;
  stop(): Promise<void>;
}

/**
 * A real server on 127.0.0.1, port 0, with a data folder of its own that is removed on stop.
 * `localWebhooks`: every account it creates lets webhooks reach 127.0.0.1, where test receivers listen.
 */
export async function startTestServer(
  options: Partial<ServerOptions> & { clock?: Clock; localWebhooks?: boolean } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'shopdesk-test-'));
  // A plain copy under a key would be encrypted in place first: that start takes a folder of its own.
  if (!options.dataDir && !options.key) await copyMigratedTemplate(dataDir);
  // The daily backup would add a snapshot to every test's start; the backup tests turn it on.
  const server = await startServer({
    backups: { schedule: false },
    ...options,
    // Webhook delivery's thread from its bundle, as the bundled server runs it (not through tsx).
    outbound: {
      ...options.outbound,
      webhooks: { threadBundle: bundlePath('webhook-thread'), ...options.outbound?.webhooks },
    },
    dataDir,
    host: '127.0.0.1',
    port: 0,
  });

  const request = async <T>(
    method: string,
    urlPath: string,
    opts: RequestOptions = {},
  ): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key) headers.authorization = `Bearer ${opts.key}`;
    let body: string | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${server.url}${urlPath}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  };

  const newAccount = async (
    opts: { business?: string; plan?: Plan; apiPlan?: ApiPlan } = {},
  ): Promise<TestAccount> => {
    const account = await createAccount(server.ctx, {
      businessName: opts.business ?? 'Sparkle Cleaning',
      plan: opts.plan ?? 'platform',
      apiPlan: opts.apiPlan ?? 'growth',
    });
    if (options.localWebhooks) await updateConfig(server.ctx, account.id, { allow_local_webhooks: true });
    const portalKey = (await createKey(server.ctx, account.id, { kind: 'portal' })).key;
    const v1Key = (await createKey(server.ctx, account.id, { kind: 'v1' })).key;
    return {
      clientId: account.id,
      portalKey,
      v1Key,
      // The one place a parsed body meets its documented type: the callers' types come from the document.
      portal: ((method: string, p: string, o: RequestOptions = {}) =>
        request(method, `/api/portal/${account.id}${p}`, {
          ...o,
          key: o.key === undefined ? portalKey : o.key,
        })) as TestAccount['portal'],
      v1: ((method: string, p: string, o: RequestOptions = {}) =>
        request(method, `/api/v1${p}`, {
          ...o,
          key: o.key === undefined ? v1Key : o.key,
        })) as TestAccount['v1'],
      signIn: async () => {
        const token = await createSignInToken(server.ctx, account.id);
        const response = await request('GET', `/sign-in?token=${token}`);
        const cookie = response.headers.get('set-cookie') ?? '';
        return cookie.split(';')[0]!;
      },
      events: async <T>(type?: EventType) => {
        let query = server.ctx.db.selectFrom('events').select('payload').where('account_id', '=', account.id);
        if (type) query = query.where('type', '=', type);
        const rows = await query.orderBy('id').execute();
        return rows.map((row) => JSON.parse(row.payload) as StoredEvent<T>);
      },
    };
  };

  return {
    ...server,
    dataDir,
    request: request as TestServer['request'],
    createAccount: newAccount,
    stop: async () => {
      await server.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A file's way to start servers that are all stopped after each of its tests:
 * `const started = serversStoppedAfterEach();` then `await started()` in a test.
 */
export function serversStoppedAfterEach(): (
  options?: Parameters<typeof startTestServer>[0],
) => Promise<TestServer> {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop()));
  });
  return async (options) => {
    const server = await startTestServer(options);
    servers.push(server);
    return server;
  };
}
