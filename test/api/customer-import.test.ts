import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerImport } from '../../shared/schemas/customer-import';
import { errorOf, expectOk, expectStatus, type Method } from '../helpers/api-responses';
import { csvLine, jobberExport } from '../helpers/client-files';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

/** The signed-in owner's calls, as the UI makes them. */
async function owner(shop: TestAccount) {
  const cookie = await shop.signIn();
  const call = <M extends Method, P extends string>(method: M, path: P, body?: unknown) =>
    shop.portal(method, path, { key: null, headers: { cookie }, ...(body !== undefined && { body }) });
  const upload = async (csv: string | Buffer, name = 'clients.csv') => {
    const response = await fetch(
      `${server.url}/api/portal/${shop.clientId}/customer-imports?file_name=${name}`,
      {
        method: 'POST',
        headers: { cookie, 'content-type': 'text/csv' },
        body: typeof csv === 'string' ? csv : new Uint8Array(csv),
      },
    );
    return { status: response.status, body: (await response.json()) as any };
  };
  /**
   * Starts a dry run, import or undo (202 at once) and follows it until it ends, as the UI does:
   * the answer is the import as the run left it. A refusal (4xx) comes back as it is.
   */
  const run = async (path: string, body?: unknown) => {
    const started = await shop.portal<CustomerImport>('POST', path, {
      key: null,
      headers: { cookie },
      ...(body !== undefined && { body }),
    });
    if (started.status !== 202) return started;
    expect(started.body.run).toMatchObject({ state: 'running', rows_done: expect.any(Number) });
    return { status: 202, body: await finished(started.body.id) };
  };
  const finished = async (id: string) => {
    for (;;) {
      const state = expectOk(await call('GET', `/customer-imports/${id}`));
      if (state.body.run?.state !== 'running') return state.body;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { cookie, call, upload, run, finished };
}

const customerCount = async (shop: TestAccount) =>
  Number(
    (
      await server.ctx.db
        .selectFrom('customers')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('account_id', '=', shop.clientId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('customer import', () => {
  it('recognises a Jobber export, dry-runs it, imports it whole and undoes it whole', async () => {
    const shop = await server.createAccount();
    const { call, upload, cookie, run } = await owner(shop);
    const { csv, badRows } = jobberExport(200, 8);
    const uploaded = await upload(csv);
    expectStatus(uploaded, 201);
    expect(uploaded.body).toMatchObject({
      object: 'customer_import',
      preset: 'jobber',
      encoding: 'utf-8',
      delimiter: ',',
    });
    const { columns, id } = uploaded.body;

    const preview = await call('POST', `/customer-imports/${id}/preview`, { columns });
    expectStatus(preview, 200);
    expect(preview.body.rows[0]).toMatchObject({
      row: 2,
      error: null,
      customer: {
        name: 'Client 1 Example',
        email: 'client1@example.com',
        phone: '416-555-0001',
        address: '1 Queen St W, Toronto, ON, M5H 2N2, Canada',
        tags: ['weekly'],
        property: {
          label: 'Home',
          street: '1 King St E',
          city: 'Toronto',
          region: 'ON',
          postal_code: 'M5C 1G8',
        },
      },
    });

    const dry = await run(`/customer-imports/${id}/dry-run`, { columns, on_match: 'skip' });
    expectStatus(dry, 202);
    expect(dry.body.run).toMatchObject({
      phase: 'dry_run',
      state: 'succeeded',
      rows_done: 200,
      rows_total: 200,
    });
    expect(dry.body.dry_run).toMatchObject({ rows: 200, added: 192, updated: 0, skipped: 0, rejected: 8 });
    expect(dry.body.dry_run!.rejected_rows.map((r: { row: number }) => r.row)).toEqual(badRows);
    expect(dry.body.dry_run!.rejected_rows.map((r: { reason: string }) => r.reason)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/no name/),
        expect.stringMatching(/email/),
        expect.stringMatching(/repeats row 2/),
      ]),
    );
    expect(await customerCount(shop)).toBe(0);

    const rejected = await fetch(
      `${server.url}/api/portal/${shop.clientId}/customer-imports/${id}/rejected.csv`,
      {
        headers: { cookie },
      },
    );
    expect(rejected.headers.get('content-type')).toMatch(/text\/csv/);
    const lines = (await rejected.text()).trim().split('\r\n');
    expect(lines).toHaveLength(9);
    expect(lines[0]).toMatch(/^J-ID,Display Name,.*,row,reason$/);

    const imported = await run(`/customer-imports/${id}/import`, { columns, on_match: 'skip' });
    expectStatus(imported, 202);
    expect(imported.body).toMatchObject({ status: 'imported', undoable: true });
    expect(imported.body.result).toMatchObject({ added: 192, rejected: 8, events_sent: 0 });
    expect(await customerCount(shop)).toBe(192);
    expect(await shop.events('customer.created')).toHaveLength(0);
    const ada = expectOk(await shop.portal('GET', '/customers/client3@example.com'));
    expect(ada.body.tags).toEqual(['vip', 'weekly']);
    const places = expectOk(await shop.portal('GET', `/properties?customer_id=${ada.body.id}`));
    expect(places.body.data).toMatchObject([{ street: '3 King St E', is_default: true, label: 'Home' }]);

    expect((await call('POST', `/customer-imports/${id}/import`, { columns })).status).toBe(409);
    const undone = await run(`/customer-imports/${id}/undo`);
    expectStatus(undone, 202);
    expect(undone.body).toMatchObject({ status: 'undone', undoable: false });
    expect(await customerCount(shop)).toBe(0);
    const leftovers = await server.ctx.db
      .selectFrom('properties')
      .select('id')
      .where('account_id', '=', shop.clientId)
      .execute();
    expect(leftovers).toHaveLength(0);
  });

  it('updates or skips customers that match by e-mail or by name and phone, and undo puts them back', async () => {
    const shop = await server.createAccount();
    const { upload, run } = await owner(shop);
    await shop.portal('POST', '/customers', {
      body: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '555 0100' },
    });
    await shop.portal('POST', '/customers', { body: { name: 'Bob Brown', phone: '(416) 555-0199' } });
    const eventsBefore = (await shop.events('customer.created')).length;
    const csv =
      csvLine(['Name', 'Email', 'Phone', 'Tags', 'Notes']) +
      csvLine(['Ada King', 'ADA@example.com', '555 0100', 'vip', 'Prefers mornings']) +
      csvLine(['bob brown', '', '416.555.0199', '', '']) +
      csvLine(['Cy New', 'cy@example.com', '', '', '']);
    const { body } = await upload(csv);
    expect(body.preset).toBeNull();
    expect(body.columns).toEqual(['name', 'email', 'phone', 'tags', 'notes']);
    const skip = await run(`/customer-imports/${body.id}/dry-run`, {
      columns: body.columns,
      on_match: 'skip',
    });
    expect(skip.body.dry_run).toMatchObject({ added: 1, skipped: 2, updated: 0, rejected: 0 });
    const imported = await run(`/customer-imports/${body.id}/import`, {
      columns: body.columns,
      on_match: 'update',
      send_events: true,
    });
    expect(imported.body.result).toMatchObject({ added: 1, updated: 2, skipped: 0, events_sent: 1 });
    const ada = expectOk(await shop.portal('GET', '/customers/ada@example.com'));
    expect(ada.body).toMatchObject({
      name: 'Ada King',
      tags: ['vip'],
      notes: [{ text: 'Prefers mornings' }],
    });
    const events = await shop.events<{ email: string }>('customer.created');
    expect(events.slice(eventsBefore).map((e) => e.data.object.email)).toEqual(['cy@example.com']);

    await run(`/customer-imports/${body.id}/undo`);
    const back = expectOk(await shop.portal('GET', '/customers/ada@example.com'));
    expect(back.body).toMatchObject({ name: 'Ada Lovelace', tags: [], notes: [] });
    expect((await shop.portal('GET', '/customers/cy@example.com')).status).toBe(404);
  });

  it('refuses to undo once something else touched one of its customers', async () => {
    const shop = await server.createAccount();
    const { call, upload, run } = await owner(shop);
    const { body } = await upload(
      csvLine(['Name', 'Email']) + csvLine(['Ann', 'ann@example.com']) + csvLine(['Ben', 'ben@example.com']),
    );
    await run(`/customer-imports/${body.id}/import`, { columns: body.columns });
    await shop.portal('POST', '/customers/ben@example.com/notes', { body: { text: 'Called back' } });
    const after = expectOk(await call('GET', `/customer-imports/${body.id}`));
    expect(after.body.undoable).toBe(false);
    const undo = await run(`/customer-imports/${body.id}/undo`);
    expectStatus(undo, 409);
    expect(errorOf(undo).code).toBe('invalid_state');
    expect(await customerCount(shop)).toBe(2);
  });

  it('reads Windows-1252, semicolons, BOMs, quoted line breaks and Excel formula guards', async () => {
    const shop = await server.createAccount();
    const { call, upload } = await owner(shop);
    const text =
      'Nom;Email;Phone;Notes\r\n' +
      'Zoë Françoise;zoe@example.com;\'+1 416 555 0100;"Gate code 12;\r\nback door"\r\n' +
      'René Müller;="rene@example.com";="0041 44 555 0100";\r\n';
    const latin = Buffer.from(text, 'latin1');
    const first = await upload(latin);
    expect(first.body).toMatchObject({ encoding: 'windows-1252', delimiter: ';' });
    const columns = ['name', 'email', 'phone', 'notes'];
    const preview = expectOk(await call('POST', `/customer-imports/${first.body.id}/preview`, { columns }));
    expect(preview.body.rows.map((r: any) => r.customer)).toMatchObject([
      { name: 'Zoë Françoise', phone: '+1 416 555 0100', notes: ['Gate code 12;\r\nback door'] },
      { name: 'René Müller', email: 'rene@example.com', phone: '0041 44 555 0100' },
    ]);
    const bom = await upload(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text.replace(/;/g, ','), 'utf8')]),
    );
    expect(bom.body).toMatchObject({
      encoding: 'utf-8',
      delimiter: ',',
      headers: ['Nom', 'Email', 'Phone', 'Notes'],
    });
  });

  it('takes a file far over the JSON body limit, and says what is wrong with a bad mapping', async () => {
    const shop = await server.createAccount();
    const { upload, run } = await owner(shop);
    const { csv } = jobberExport(6000);
    expect(Buffer.byteLength(csv)).toBeGreaterThan(1024 * 1024);
    const big = await upload(csv);
    expectStatus(big, 201);
    const short = await run(`/customer-imports/${big.body.id}/dry-run`, { columns: ['name'] });
    expectStatus(short, 400);
    expect(errorOf(short)).toMatchObject({ code: 'validation_failed', param: 'columns' });
    const nameless = big.body.columns.map(() => null);
    expect((await run(`/customer-imports/${big.body.id}/dry-run`, { columns: nameless })).status).toBe(400);
    const empty = await upload('');
    expectStatus(empty, 400);
  });

  it('is for the signed-in owner only: not a portal key, another account or no one', async () => {
    const shop = await server.createAccount();
    const other = await server.createAccount();
    const { upload } = await owner(shop);
    const { body } = await upload(csvLine(['Name', 'Email']) + csvLine(['Ann', 'ann@example.com']));
    const byKey = await shop.portal('GET', `/customer-imports/${body.id}`);
    expectStatus(byKey, 403);
    const keyUpload = await fetch(`${server.url}/api/portal/${shop.clientId}/customer-imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.portalKey}`, 'content-type': 'text/csv' },
      body: 'Name\nAnn\n',
    });
    expectStatus(keyUpload, 403);
    const otherCookie = await other.signIn();
    const cross = await shop.portal('GET', `/customer-imports/${body.id}`, {
      key: null,
      headers: { cookie: otherCookie },
    });
    expectStatus(cross, 403);
    const ownAccount = await other.portal('GET', `/customer-imports/${body.id}`, {
      key: null,
      headers: { cookie: otherCookie },
    });
    expectStatus(ownAccount, 404);
    const anonymous = await shop.portal('POST', `/customer-imports/${body.id}/undo`, { key: null });
    expectStatus(anonymous, 401);
    const jsonUpload = await shop.portal('POST', '/customer-imports', { body: { csv: 'Name' } });
    expectStatus(jsonUpload, 403);
  });
});
