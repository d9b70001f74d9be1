import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  type ErrorBody,
  errorOf,
  expectError,
  expectOk,
  expectStatus,
  okBody,
  type PortalPaths,
  type TemplateOf,
} from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

/** The test helpers type answers from the OpenAPI document; these checks fail `tsc` when that breaks. */
let server: TestServer;
let shop: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  shop = await server.createAccount();
}, 120_000);
afterAll(() => server.stop());

describe('a path finds its template', () => {
  it('by equality, by segments, and not at all when several fit', () => {
    expectTypeOf<TemplateOf<PortalPaths, '/customers?limit=2'>>().toEqualTypeOf<'/customers'>();
    expectTypeOf<
      TemplateOf<PortalPaths, `/customers/${string}/notes`>
    >().toEqualTypeOf<'/customers/{email}/notes'>();
    expectTypeOf<
      TemplateOf<PortalPaths, '/jobs/J-0001/complete'>
    >().toEqualTypeOf<'/jobs/{number}/complete'>();
    expectTypeOf<TemplateOf<PortalPaths, '/nothing-here'>>().toBeNever();
  });
});

describe('answers typed by method and path', () => {
  it('narrows a success by its status and reads its documented body', async () => {
    const created = await shop.portal('POST', '/customers', {
      body: { name: 'Ada', email: 'ada@example.com' },
    });
    expectStatus(created, 201);
    expectTypeOf(created.body.email).toEqualTypeOf<string | null>();
    const read = okBody(await shop.portal('GET', `/customers/${created.body.id}`));
    expectTypeOf(read.id).toEqualTypeOf<string>();
    expect(read.email).toBe('ada@example.com');
  });

  it("narrows a refusal to the contract's error shape", async () => {
    const missing = await shop.portal('GET', '/customers/nobody@example.com');
    expectStatus(missing, 404);
    expectTypeOf(missing.body).toEqualTypeOf<ErrorBody>();
    expect(missing.body.error.code).toBe('not_found');
    expect(expectError(await shop.v1('GET', '/clients/cus_missing')).body.error.type).toBe(
      'invalid_request_error',
    );
  });

  it('leaves an undocumented route unknown until the test types it', async () => {
    const health = await server.request('GET', '/health');
    expectTypeOf(health.body).toBeUnknown();
    expect(okBody(await server.request<{ status: string }>('GET', '/health')).status).toBe('ok');
    const unknownRoute = await shop.portal('GET', '/nothing-here');
    expectStatus(unknownRoute, 404);
    expectTypeOf(unknownRoute.body).toEqualTypeOf<ErrorBody>();
  });

  it('fails on the wrong status with the answer in the message', async () => {
    const refused = await shop.portal('POST', '/customers', { body: { name: '' } });
    expect(() => expectOk(refused)).toThrow(/validation_failed/);
    expect(() => expectStatus(refused, 201)).toThrow(/validation_failed/);
    expect(errorOf(refused).code).toBe('validation_failed');
    const ok = await shop.portal('GET', '/customers');
    expect(() => expectError(ok)).toThrow();
    expect(() => errorOf(ok)).toThrow();
  });
});
