import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createContext } from '../../server/context';
import { createAccount, updateConfig } from '../../server/domain/accounts';
import { createKey } from '../../server/domain/api-keys';
import { systemClock } from '../../server/lib/clock';
import { openDatabase } from '../../server/sync/open';
import { cliJson as cli } from '../helpers/child-installs';
import { type Decision, decisionKey, divergentRows, type Export, lostWrites, type Summary } from './checks';
import { freePort, Machine } from './machines';
import { type Link, startLink } from './proxy';
import { seededRandom } from './random';
import { startEventReceiver } from './receiver';
import { newWriteLog, Writer } from './writers';

export const CHECKS = [
  'acknowledged_writes',
  'divergent_rows',
  'server_errors',
  'events',
  'decisions',
] as const;
export type CheckName = (typeof CHECKS)[number];

export interface CampaignOptions {
  minutes: number;
  seed: number;
  /** Checks left out of the verdict (reported as skipped): for a known bug whose fix is elsewhere. */
  skip?: ReadonlySet<CheckName>;
  /** Progress lines (stderr in the script), never the summary. */
  progress?: (line: string) => void;
  keepFolders?: boolean;
}

const HOUR_MS = 3600_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The portal API of one machine with the business's portal key; an error status throws. */
async function portal<T>(
  machine: Machine,
  key: string,
  clientId: string,
  method: string,
  route: string,
  body?: unknown,
) {
  const response = await fetch(`${machine.url}/api/portal/${clientId}${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(180_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${machine.name} ${method} ${route}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** A fresh business on the hub's folder: Platform plan, v1 at Growth, webhooks allowed to 127.0.0.1. */
async function prepareHub(dir: string) {
  const database = await openDatabase(dir);
  try {
    const ctx = createContext(database.db, systemClock);
    const account = await createAccount(ctx, { businessName: 'Chaos', plan: 'platform', apiPlan: 'growth' });
    await updateConfig(ctx, account.id, { allow_local_webhooks: true });
    const portalKey = (await createKey(ctx, account.id, { kind: 'portal' })).key;
    const v1Key = (await createKey(ctx, account.id, { kind: 'v1' })).key;
    return { clientId: account.id, portalKey, v1Key };
  } finally {
    await database.close();
  }
}

/** Keys are this install's own (not synced): each joined device gets its own. */
async function deviceKeys(dir: string, clientId: string) {
  const database = await openDatabase(dir);
  try {
    const ctx = createContext(database.db, systemClock);
    const portalKey = (await createKey(ctx, clientId, { kind: 'portal' })).key;
    const v1Key = (await createKey(ctx, clientId, { kind: 'v1' })).key;
    return { portalKey, v1Key };
  } finally {
    await database.close();
  }
}

/**
 * The fault campaign (docs/sync.md, "Fault campaign"): a hub and three devices as real processes,
 * a writer on each, clocks 3 hours slow and 2 days fast, partitions, graceful stops and kill -9,
 * then a healing sync and the invariants.
 */
export async function runCampaign(options: CampaignOptions): Promise<Summary> {
  const say = options.progress ?? (() => {});
  const random = seededRandom(options.seed);
  const work = mkdtempSync(path.join(tmpdir(), 'shopdesk-chaos-'));
  const receiver = await startEventReceiver();
  const machines: Machine[] = [];
  const links: Link[] = [];
  const writers: Writer[] = [];
  const log = newWriteLog();
  const faults: Record<string, number> = {};
  const count = (fault: string) => {
    faults[fault] = (faults[fault] ?? 0) + 1;
  };
  try {
    const folder = (name: string) => {
      const dir = path.join(work, name);
      mkdirSync(dir);
      return dir;
    };
    const hubDir = folder('hub');
    const business = await prepareHub(hubDir);
    const hub = new Machine('hub', hubDir, await freePort(), 0);
    machines.push(hub);
    await hub.start();
    say(`hub up at ${hub.url}`);

    const deviceSpecs = [
      { name: 'slow', offsetMs: -3 * HOUR_MS },
      { name: 'fast', offsetMs: 48 * HOUR_MS },
      { name: 'cut-off', offsetMs: 0 },
    ];
    const keys = new Map<Machine, { portalKey: string; v1Key: string }>([[hub, business]]);
    const linkOf = new Map<Machine, Link>();
    // One at a time, so no two machines are handed the same free port.
    const ports: number[] = [];
    for (const _spec of deviceSpecs) ports.push(await freePort());
    // Joins and starts run side by side: on a loaded machine each takes tens of seconds.
    const devices = await Promise.all(
      deviceSpecs.map(async (spec, index) => {
        const pairing = await portal<{ pairing_code: string }>(
          hub,
          business.portalKey,
          business.clientId,
          'POST',
          '/sync/pair',
          { name: spec.name },
        );
        const link = await startLink(hub.port);
        links.push(link);
        const dir = folder(spec.name);
        await cli(dir, 'sync', 'join', '--hub', link.url, '--code', pairing.pairing_code);
        const device = new Machine(spec.name, dir, ports[index]!, spec.offsetMs);
        keys.set(device, await deviceKeys(dir, business.clientId));
        linkOf.set(device, link);
        machines.push(device);
        await device.start();
        say(`${spec.name} joined and up at ${device.url}`);
        return device;
      }),
    );
    machines.splice(1, devices.length, ...devices);

    // Delivered by the hub's install; raised before it, nothing is expected.
    const before = await portal<Export>(hub, business.portalKey, business.clientId, 'GET', '/export');
    const earlier = new Set(((before.events as Array<{ id: string }>) ?? []).map((e) => e.id));
    await portal(hub, business.portalKey, business.clientId, 'POST', '/webhooks', {
      url: receiver.url,
      events: ['*'],
    });

    for (const machine of machines) {
      const writer = new Writer(machine, keys.get(machine)!.v1Key, random, log, machine.name);
      writers.push(writer);
      writer.start();
    }

    // The cut-off device works without its hub for the first 60 % of the run.
    const cutOff = devices[2]!;
    linkOf.get(cutOff)!.setCut(true);
    count('long_partition');
    const end = Date.now() + options.minutes * 60_000;
    const mendAt = Date.now() + options.minutes * 60_000 * 0.6;
    let rounds = 0;
    while (Date.now() < end) {
      if (linkOf.get(cutOff)!.cut && Date.now() >= mendAt) {
        linkOf.get(cutOff)!.setCut(false);
        say('cut-off device reconnected');
      }
      await sleep(2000 + random.int(4000));
      // The first round always stops, kills or partitions something: a short campaign (npm test's)
      // may have time for one round only, and a round that injects nothing would test no fault.
      const roll = rounds++ === 0 ? random.next() * 0.85 : random.next();
      if (roll < 0.2) {
        count('hub_stopped');
        say('hub: stop');
        await hub.stop();
        await sleep(1000 + random.int(5000));
        await hub.start();
      } else if (roll < 0.4) {
        count('hub_killed');
        say('hub: kill -9');
        await hub.kill();
        await sleep(random.int(3000));
        await hub.start();
      } else if (roll < 0.65) {
        const device = random.pick(devices);
        count('device_killed');
        say(`${device.name}: kill -9`);
        await device.kill();
        await sleep(random.int(3000));
        await device.start();
      } else if (roll < 0.85) {
        const device = random.pick(devices.slice(0, 2));
        const link = linkOf.get(device)!;
        count('partition');
        say(`${device.name}: partitioned`);
        link.setCut(true);
        await sleep(2000 + random.int(8000));
        link.setCut(false);
      }
    }

    say('healing');
    for (const link of links) link.setCut(false);
    await Promise.all(machines.filter((machine) => !machine.up).map((machine) => machine.start()));
    await Promise.all(writers.map((w) => w.stop()));

    const summary = await finalChecks();
    return summary;

    async function finalChecks(): Promise<Summary> {
      // The devices' rounds run side by side, as their background loops do; a device misses what
      // another pushes after its own pull either way, which the next pass brings.
      const syncEverywhere = async () => {
        await Promise.all(
          devices.map((device) =>
            portal(device, keys.get(device)!.portalKey, business.clientId, 'POST', '/sync/now'),
          ),
        );
        await portal(hub, business.portalKey, business.clientId, 'POST', '/sync/now');
      };
      const exports = async () =>
        new Map(
          await Promise.all(
            machines.map(async (machine) => {
              const exported = await portal<Export>(
                machine,
                keys.get(machine)!.portalKey,
                business.clientId,
                'GET',
                '/export',
              );
              delete exported.exported_at;
              return [machine, exported] as const;
            }),
          ),
        );
      let final = new Map<Machine, Export>();
      let divergent: Array<{ machine: string; collection: string; id: string }> = [];
      for (let pass = 0; pass < 6; pass++) {
        await syncEverywhere();
        final = await exports();
        const reference = final.get(hub)!;
        divergent = devices.flatMap((device) =>
          divergentRows(reference, final.get(device)!).map((row) => ({ machine: device.name, ...row })),
        );
        if (divergent.length === 0) break;
        say(`pass ${pass + 1}: ${divergent.length} rows differ, syncing again`);
      }
      const reference = final.get(hub)!;
      const lost = machines.flatMap((machine) => lostWrites(log.acknowledged, final.get(machine)!));

      const expected = ((reference.events as Array<{ id: string }>) ?? [])
        .map((e) => e.id)
        .filter((id) => !earlier.has(id));
      const missingEvents = () => expected.filter((id) => !receiver.deliveries.has(id));
      // Retries after the hub's restarts wait their schedule: give them a while to land.
      const deliveryDeadline = Date.now() + 180_000;
      while (missingEvents().length > 0 && Date.now() < deliveryDeadline) await sleep(200);
      const missing = missingEvents();

      const decisions: Record<string, string[]> = Object.fromEntries(
        await Promise.all(
          machines.map(async (machine) => {
            const listed = await portal<{ data: Decision[] } | Decision[]>(
              machine,
              keys.get(machine)!.portalKey,
              business.clientId,
              'GET',
              '/sync/conflicts',
            );
            const items = Array.isArray(listed) ? listed : listed.data;
            return [machine.name, items.map(decisionKey).sort()];
          }),
        ),
      );
      const decisionLists = Object.values(decisions).map((list) => JSON.stringify(list));
      const identical = decisionLists.every((list) => list === decisionLists[0]);

      const failed: Record<CheckName, boolean> = {
        acknowledged_writes: lost.length > 0,
        divergent_rows: divergent.length > 0,
        server_errors: log.serverErrors.length > 0,
        events: missing.length > 0,
        decisions: !identical,
      };
      const checks = {} as Summary['checks'];
      const violations: string[] = [];
      for (const name of CHECKS) {
        if (options.skip?.has(name)) checks[name] = 'skipped';
        else {
          checks[name] = failed[name] ? 'failed' : 'passed';
          if (failed[name]) violations.push(name);
        }
      }
      return {
        seed: options.seed,
        minutes: options.minutes,
        machines: machines.map((m) => ({ name: m.name, clock_offset_ms: m.offsetMs, starts: m.starts })),
        faults,
        writes: {
          requests: log.requests,
          acknowledged: log.acknowledged.length,
          lost: lost.length,
          refused: log.refused,
        },
        lost_writes: lost.slice(0, 20),
        divergent_rows: divergent.length,
        divergent_examples: divergent.slice(0, 20),
        server_errors: log.serverErrors.length,
        server_error_examples: log.serverErrors.slice(0, 20),
        events: {
          expected: expected.length,
          delivered: expected.length - missing.length,
          missing: missing.length,
          delivered_more_than_once: [...receiver.deliveries.values()].filter((n) => n > 1).length,
        },
        missing_event_examples: missing.slice(0, 20),
        decisions: { identical, per_machine: decisions },
        checks,
        violations,
      };
    }
  } finally {
    for (const writer of writers) writer.abandon();
    await Promise.all(machines.map((m) => m.stop()));
    await Promise.all(links.map((l) => l.close()));
    await receiver.close();
    if (!options.keepFolders) rmSync(work, { recursive: true, force: true });
    else say(`folders kept in ${work}`);
  }
}
