import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import type { ApiError } from '../../server/lib/errors';
import { migratePgHub } from '../../server/sync/hub/pg-schema';
import { pgHubStorage } from '../../server/sync/hub/pg-storage';
import { Hub } from '../../server/sync/hub/service';
import type { HubDevice, PushedChange } from '../../server/sync/hub/storage';
import { startPostgresForSuite } from '../helpers/postgres';
import { business, clockAt, customer, pullAll } from './hub-fixtures';

/** One hosted hub (PostgreSQL) holding two businesses: a push reaches only its own business's rows. */
describe('a hosted hub holding two businesses', () => {
  const url = startPostgresForSuite();
  const clock = manualClock();
  let pool: pg.Pool;
  let hub: Hub;
  /** The statements sent while `counting` is set, through any client of the pool. */
  const statements: string[] = [];
  let counting = false;
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: url(), max: 2 });
    const patched = new WeakSet<pg.PoolClient>();
    pool.on('acquire', (client) => {
      if (patched.has(client)) return;
      patched.add(client);
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      Object.assign(client, {
        query: (...args: unknown[]) => {
          if (counting) statements.push(String(typeof args[0] === 'string' ? args[0] : ''));
          return query(...args);
        },
      });
    });
    await migratePgHub(pool);
    hub = new Hub(pgHubStorage(pool), clock);
  });
  afterAll(async () => {
    hub?.shutdown();
    await pool?.end();
  });

  let seq = 0;
  const push = (device: HubDevice, changes: Array<Omit<PushedChange, 'local_seq'>>) =>
    hub.push(
      device,
      changes.map((change) => ({ ...change, local_seq: ++seq })),
    );
  const newCustomer = (accountId: string, id: string) => ({
    table: 'customers',
    pk: JSON.stringify([id]),
    state: customer(accountId, id, `${id}@x.test`, ++seq),
  });
  const job = (id: string, v: Record<string, unknown>) => ({
    table: 'jobs',
    pk: JSON.stringify([id]),
    state: {
      v: { id, ...v },
      c: Object.fromEntries(['id', ...Object.keys(v)].map((k) => [k, clockAt(++seq)])),
    },
  });
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: ApiError) => ({ status: error.status, code: error.code, param: error.options.param }),
    );

  it('refuses a key or a parent of another business, also a parent the change leaves to the held row', async () => {
    const a = await business(hub, 1);
    const b = await business(hub, 1);
    const [aDevice, bDevice] = [a.devices[0]!, b.devices[0]!];
    const bCustomer = `cus_${randomUUID()}`;
    const aCustomer = `cus_${randomUUID()}`;
    const aJob = `job_${randomUUID()}`;
    await push(bDevice, [newCustomer(b.accountId, bCustomer)]);
    await push(aDevice, [
      newCustomer(a.accountId, aCustomer),
      job(aJob, { account_id: a.accountId, customer_id: aCustomer, title: 'Mine' }),
    ]);
    const before = await pullAll(hub, b.accountId);

    expect(await refusal(push(aDevice, [newCustomer(a.accountId, bCustomer)]))).toEqual({
      status: 403,
      code: 'cross_business_change',
      param: 'changes[0].pk',
    });
    expect(
      await refusal(
        push(aDevice, [job(`job_${randomUUID()}`, { account_id: a.accountId, customer_id: bCustomer })]),
      ),
    ).toEqual({ status: 403, code: 'cross_business_change', param: 'changes[0].state.v.customer_id' });

    // A row stored before the hub checked, naming B's customer: a change that leaves the customer
    // out keeps it, and is refused too.
    await pool.query(
      `UPDATE hub_rows SET vals = jsonb_set(vals::jsonb, '{customer_id}', to_jsonb($3::text))::text
       WHERE account_id = $1 AND tbl = 'jobs' AND pk = $2`,
      [a.accountId, JSON.stringify([aJob]), bCustomer],
    );
    expect(await refusal(push(aDevice, [job(aJob, { title: 'Renamed' })]))).toEqual({
      status: 403,
      code: 'cross_business_change',
      param: 'changes[0].state.v.customer_id',
    });
    expect(await pullAll(hub, b.accountId)).toEqual(before);
    expect((await pullAll(hub, a.accountId)).map((r) => r.state.v.title)).not.toContain('Renamed');

    // A key both businesses hold already (stored before the hub checked): each holds its own.
    await pool.query(
      `INSERT INTO hub_rows (account_id, tbl, pk, seq, vals, clocks)
       SELECT $1, tbl, pk, -1, vals, clocks FROM hub_rows WHERE account_id = $2 AND tbl = 'customers' AND pk = $3`,
      [a.accountId, b.accountId, JSON.stringify([bCustomer])],
    );
    const renamed = {
      table: 'customers',
      pk: JSON.stringify([bCustomer]),
      state: { v: { name: 'Kept apart' }, c: { name: clockAt(++seq) } },
    };
    expect(await push(aDevice, [renamed])).toMatchObject({ accepted: 1 });
    expect(await pullAll(hub, b.accountId)).toEqual(before);
  });

  it('checks every change of a push in the queries it reads the push with', async () => {
    const { accountId, devices } = await business(hub, 1);
    const device = devices[0]!;
    const customers = Array.from({ length: 40 }, () => `cus_${randomUUID()}`);
    const jobs = customers.slice(0, 20).map(() => `job_${randomUUID()}`);
    await push(device, [
      ...customers.map((id) => newCustomer(accountId, id)),
      ...jobs.map((id, i) => job(id, { account_id: accountId, customer_id: customers[i], title: 'First' })),
    ]);
    const counted = async (changes: Array<Omit<PushedChange, 'local_seq'>>) => {
      statements.length = 0;
      counting = true;
      try {
        expect((await push(device, changes)).accepted).toBe(changes.length);
      } finally {
        counting = false;
      }
      return statements.length;
    };
    const one = await counted([job(jobs[0]!, { title: 'Second' })]);
    // New jobs naming their customers, and title changes whose customer only the held rows name.
    const many = await counted([
      ...customers
        .slice(20)
        .map((id) => job(`job_${randomUUID()}`, { account_id: accountId, customer_id: id })),
      ...jobs.map((id) => job(id, { title: 'Third' })),
    ]);
    expect(many).toBe(one);
  });
});
