import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type AppContext, createContext } from '../../../server/context';
import { createAccount, updateConfig } from '../../../server/domain/accounts';
import { updateBookingPage } from '../../../server/domain/booking-page';
import { applyPendingActions } from '../../../server/domain/client-actions';
import { isoNow, manualClock } from '../../../server/lib/clock';
import { SyncEngine } from '../../../server/sync/device/engine';
import { type HubTransport, localTransport, SyncError } from '../../../server/sync/device/transport';
import type { HubStorage } from '../../../server/sync/hub/storage';
import { type OpenedDatabase, openDatabase } from '../../../server/sync/open';
import type { SyncJoinResponse } from '../../../shared/schemas/sync';

/** A small deterministic PRNG (mulberry32): the same seed replays the same run. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}
export type Rng = ReturnType<typeof rng>;

export interface Replica {
  name: string;
  dir: string;
  skewMs: number;
  database: OpenedDatabase;
  ctx: AppContext;
  engine: SyncEngine;
  clock: ReturnType<typeof manualClock>;
  /** Cut off from the hub: its rounds fail as a dead network would. */
  partitioned: boolean;
}

export interface Faults {
  /** Chance that a request is lost before the hub sees it. */
  dropRequest: number;
  /** Chance that the hub commits but the answer is lost (a crash after the acknowledgement). */
  dropResponse: number;
  /** Chance that a request arrives twice. */
  duplicate: number;
  /** Chance that a device is cut off right after applying customers' actions, before pushing. */
  cutAfterApply: number;
}

const HUB_URL = 'http://hub.invalid';
let template: string | undefined;

/** One migrated database, copied for every replica: a seed costs file copies, not migrations. */
async function templateFile(): Promise<string> {
  if (template) return template;
  const dir = mkdtempSync(path.join(tmpdir(), 'shopdesk-sim-template-'));
  const database = await openDatabase(dir);
  await database.close();
  template = path.join(dir, 'shopdesk.sqlite');
  return template;
}

export class World {
  readonly replicas: Replica[] = [];
  accountId = '';
  faults: Faults = { dropRequest: 0, dropResponse: 0, duplicate: 0, cutAfterApply: 0 };
  private readonly start = Date.parse('2026-11-22T09:00:00Z');

  /** `hubStorage`: where the hub keeps its state (PostgreSQL); the hub's own SQLite when absent. */
  constructor(
    readonly random: Rng,
    private readonly hubStorage?: () => HubStorage,
  ) {}

  get hub(): Replica {
    return this.replicas[0]!;
  }

  async open(name: string, skewMs: number, dir?: string): Promise<Replica> {
    const folder = dir ?? mkdtempSync(path.join(tmpdir(), `shopdesk-sim-${name}-`));
    if (!dir) copyFileSync(await templateFile(), path.join(folder, 'shopdesk.sqlite'));
    const database = await openDatabase(folder);
    const clock = manualClock(new Date(this.start + skewMs + this.elapsed));
    const ctx = createContext(database.db, clock);
    const replica: Replica = {
      name,
      dir: folder,
      skewMs,
      database,
      ctx,
      clock,
      partitioned: false,
      engine: undefined as unknown as SyncEngine,
    };
    replica.engine = new SyncEngine({
      db: database.db,
      sqlite: database.sqlite,
      capture: database.capture,
      clock,
      connectivity: ctx.connectivity,
      signals: ctx.signals,
      hubStorage: name === 'hub' ? this.hubStorage?.() : undefined,
      // As every install does (server/index.ts): pending client hub actions are applied after a pull.
      // Now and then the network goes right after a device applied them, before it pushed the
      // effects, so other machines apply the same actions while it is apart (invariant 12b).
      clientActions: async (accountId) => {
        const applied = await applyPendingActions(ctx, accountId);
        if (applied && name !== 'hub' && this.random.chance(this.faults.cutAfterApply))
          replica.partitioned = true;
        return applied;
      },
      remote: {
        join: (_hub, code, deviceName, known) => this.join(code, deviceName, known),
        transport: (_url, credential) => this.transport(replica, credential),
      },
    });
    ctx.sync = replica.engine;
    return replica;
  }

  private elapsed = 0;

  /** Moves every replica's clock forward together: skews stay as they are. */
  advance(ms: number): void {
    this.elapsed += ms;
    for (const replica of this.replicas)
      replica.clock.set(new Date(this.start + replica.skewMs + this.elapsed));
  }

  async setUp(devices: number[]): Promise<void> {
    this.replicas.push(await this.open('hub', 0));
    const account = await createAccount(this.hub.ctx, {
      businessName: 'Sim Cleaning',
      plan: 'platform',
      apiPlan: 'lite',
    });
    this.accountId = account.id;
    // What the client hub's forms need (client-actions.ts): a booking page with a service, review
    // requests after completed visits, and e-mails to the owner when a customer acts.
    await updateConfig(this.hub.ctx, account.id, {
      ask_for_reviews: true,
      owner_alerts: true,
      business_email: 'owner@sim.example',
    });
    await updateBookingPage(this.hub.ctx, account.id, {
      enabled: true,
      services: [{ name: 'Window cleaning', duration_minutes: 90 }],
      hours: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, from: '08:00', to: '18:00' })),
    });
    for (const [i, skew] of devices.entries()) await this.addDevice(`d${i + 1}`, skew);
  }

  /**
   * A device joining the business now. `snapshot: false` gives it a hub that serves no snapshot
   * (an older hub), so its first sync is the paged pull from 0.
   */
  async addDevice(name: string, skewMs: number, options: { snapshot?: boolean } = {}): Promise<Replica> {
    if (options.snapshot === false) this.pagedOnly.add(name);
    const device = await this.open(name, skewMs);
    this.replicas.push(device);
    const pairing = await this.hub.engine.pair(this.accountId, { hubUrl: HUB_URL, name });
    await device.engine.join({ url: HUB_URL }, pairing.pairing_code, name);
    return device;
  }

  private readonly pagedOnly = new Set<string>();

  private async join(code: string, name?: string, known?: string[]): Promise<SyncJoinResponse> {
    const { device, credential } = await this.hub.engine.hub.join(code, name, known);
    return {
      client_id: device.account_id,
      device_id: device.id,
      device_code: device.code,
      credential,
      hub_time: isoNow(this.hub.clock),
    };
  }

  /** The hub in-process, behind a network that loses, repeats and cuts requests as `faults` say. */
  private transport(replica: Replica, credential: string): HubTransport {
    const through = async <T>(call: (t: HubTransport) => Promise<T>): Promise<T> => {
      if (replica.partitioned) throw new SyncError('partitioned', 'hub_unreachable');
      if (this.random.chance(this.faults.dropRequest)) throw new SyncError('request lost', 'hub_unreachable');
      const device = await this.hub.engine.hub.authenticate(`Bearer ${credential}`);
      const hub = localTransport(this.hub.engine.hub, device, this.hub.clock);
      let result = await call(hub);
      if (this.random.chance(this.faults.duplicate)) result = await call(hub);
      if (this.random.chance(this.faults.dropResponse))
        throw new SyncError('response lost', 'hub_unreachable');
      return result;
    };
    return {
      push: (changes) => through((t) => t.push(changes)),
      // Pages of a few rows now and then: a page may end between a payment and the invoice it
      // changed (later in hub order), which no decision may take for a deletion.
      pull: (cursor, limit) =>
        through((t) => t.pull(cursor, this.random.chance(0.5) ? 1 + this.random.int(4) : limit, 0)),
      lease: (series, size) => through((t) => t.lease(series, size)),
      // Devices join while the faults are off; drawing no random numbers here keeps every seed's
      // history what it was before first syncs read snapshots.
      snapshot: async (query) => {
        if (this.pagedOnly.has(replica.name)) throw new SyncError('Not found', 'not_found', 404);
        const device = await this.hub.engine.hub.authenticate(`Bearer ${credential}`);
        return localTransport(this.hub.engine.hub, device, this.hub.clock).snapshot(query);
      },
      handOverWebhook: (endpointId, secrets) => through((t) => t.handOverWebhook(endpointId, secrets)),
    };
  }

  /** A crash and restart: the process state goes, the folder stays. */
  async restart(index: number): Promise<void> {
    const old = this.replicas[index]!;
    old.engine.hub.shutdown();
    await old.database.close();
    const replica = await this.open(old.name, old.skewMs, old.dir);
    replica.partitioned = old.partitioned;
    this.replicas[index] = replica;
  }

  async close(): Promise<void> {
    for (const replica of this.replicas) {
      replica.engine.hub.shutdown();
      await replica.database.close();
      rmSync(replica.dir, { recursive: true, force: true });
    }
  }
}
