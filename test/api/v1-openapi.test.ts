import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ErrorBody, expectStatus, type OpenApiDocument, okBody } from '../helpers/api-responses';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

const resources = ['clients', 'jobs', 'quotes', 'invoices', 'bookings', 'reviews'];

describe('v1 OpenAPI', () => {
  it('documents every v1 route with a resource tag, a summary and its error responses', async () => {
    const doc = await server.request<OpenApiDocument>('GET', '/openapi.json');
    expectStatus(doc, 200);
    const paths = doc.body.paths;
    const v1 = Object.entries(paths).filter(([path]) => path.startsWith('/api/v1/'));
    for (const resource of resources) {
      const base = paths[`/api/v1/${resource}`];
      expect(base?.get, resource).toBeDefined();
      expect(base?.post, resource).toBeDefined();
      const one = paths[`/api/v1/${resource}/{id}`];
      expect(Object.keys(one ?? {}).sort(), resource).toEqual(
        expect.arrayContaining(['delete', 'get', 'patch']),
      );
    }
    for (const [path, operations] of v1) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(operation.tags?.[0], `${method} ${path}`).toMatch(/^v1 /);
        expect(operation.summary, `${method} ${path}`).toBeTruthy();
        expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(
          expect.arrayContaining(['400', '401', '403', '429']),
        );
      }
    }
    for (const action of [
      '/api/v1/jobs/{id}/complete',
      '/api/v1/jobs/{id}/cancel',
      '/api/v1/quotes/{id}/convert',
      '/api/v1/invoices/{id}/payments',
      '/api/v1/invoices/{id}/void',
      '/api/v1/bookings/{id}/confirm',
    ]) {
      expect(paths[action]?.post, action).toBeDefined();
    }
  });

  it('carries request examples and the list filters', async () => {
    const doc = okBody(await server.request<OpenApiDocument>('GET', '/openapi.json'));
    for (const resource of resources) {
      const body = doc.paths[`/api/v1/${resource}`]!.post!.requestBody.content['application/json']!;
      expect(body.examples?.example?.value, resource).toBeTypeOf('object');
    }
    const create = doc.paths['/api/v1/invoices']!.post!.requestBody.content['application/json']!;
    expect(create.examples?.example?.value.customer_email).toBe('ada@example.com');
    const filters = doc.paths['/api/v1/invoices']!.get!.parameters.map((p) => p.name);
    expect(filters).toEqual(
      expect.arrayContaining(['limit', 'cursor', 'status', 'client_id', 'created_after', 'updated_since']),
    );
  });

  it('serves Swagger UI at /docs', async () => {
    const ui = await server.request('GET', '/docs/');
    expectStatus(ui, 200);
    expect(ui.text).toContain('swagger');
  });

  // The docs are a Fastify instance of their own, built on first request (server/http/docs.ts).
  it('serves the same document at /docs/json and /docs/yaml, and the API 404 for what the docs lack', async () => {
    const served = await server.request<unknown>('GET', '/openapi.json');
    const json = await server.request<unknown>('GET', '/docs/json');
    expect(json.text).toBe(served.text);
    expect(json.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const yaml = await server.request<unknown>('GET', '/docs/yaml');
    expect(yaml.headers.get('content-type')).toContain('application/x-yaml');
    expect(yaml.text).toContain('title: Shopdesk API');
    const style = await server.request<unknown>('GET', '/docs/static/swagger-ui.css');
    expectStatus(style, 200);
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const missing = await server.request<ErrorBody>('GET', '/docs/static/missing.js');
    expectStatus(missing, 404);
    expect(missing.body.error.code).toBe('not_found');
    expect(missing.headers.get('request-id')).toBe(missing.body.error.request_id);
  });
});
