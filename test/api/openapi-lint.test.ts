import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

let server: TestServer;
let shop: TestAccount;
let doc: any;

beforeAll(async () => {
  server = await startTestServer();
  shop = await server.createAccount();
  doc = okBody(await server.request('GET', '/openapi.json'));
});
afterAll(() => server.stop());

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** Runs a linter's CLI on the document; both exit non-zero on errors, so the output is read either way. */
async function lint(bin: string, args: string[]): Promise<string> {
  try {
    return (
      await run(process.execPath, [path.join(ROOT, 'node_modules', bin), ...args], {
        cwd: ROOT,
        maxBuffer: 64 * 1024 * 1024,
      })
    ).stdout;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    if (failed.stdout) return failed.stdout;
    throw new Error(`${bin} did not run: ${failed.stderr}`);
  }
}

type Operation = { operationId?: string; responses: Record<string, any>; requestBody?: any };

function operations(): Array<[string, string, Operation]> {
  return Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(
      ([method, operation]) => [path, method, operation] as [string, string, Operation],
    ),
  );
}

/** Every sub-schema of a JSON value, to look for shapes no document should hold. */
function* schemas(value: unknown): Generator<Record<string, any>> {
  if (Array.isArray(value)) for (const item of value) yield* schemas(item);
  else if (value && typeof value === 'object') {
    yield value as Record<string, any>;
    for (const child of Object.values(value)) yield* schemas(child);
  }
}

/** Validates a value against a request body schema of the document, $refs and all, as a generated client would. */
function validator(schema: unknown) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile({ ...(schema as object), components: doc.components });
}

describe('the OpenAPI document', () => {
  // Both CLIs, side by side, on the document this server serves; the rules and the warnings left
  // (and why) are in .spectral.yaml and redocly.yaml.
  it('passes redocly lint and spectral lint (spectral:oas) with no error', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'shopdesk-openapi-'));
    try {
      const file = path.join(folder, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc));
      const [redocly, spectral] = await Promise.all([
        lint('@redocly/cli/bin/cli.js', [
          'lint',
          file,
          '--config',
          path.join(ROOT, 'redocly.yaml'),
          '--format',
          'json',
        ]),
        lint('@stoplight/spectral-cli/dist/index.js', [
          'lint',
          file,
          '--ruleset',
          path.join(ROOT, '.spectral.yaml'),
          '--format',
          'json',
          '--quiet',
        ]),
      ]);
      const redoclyErrors = (
        JSON.parse(redocly) as { problems: Array<{ severity: string; ruleId: string; message: string }> }
      ).problems.filter((p) => p.severity === 'error');
      expect(redoclyErrors.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
      const spectralErrors = (
        JSON.parse(spectral) as Array<{ severity: number; code: string; path: string[] }>
      ).filter((p) => p.severity === 0);
      expect(spectralErrors.map((p) => `${p.code}: ${p.path.join('/')}`)).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 180_000);

  it('closes the request bodies the server closes, and leaves optional what has a default', () => {
    const deref = (schema: any): any =>
      schema?.$ref ? deref(doc.components.schemas[schema.$ref.split('/').pop()]) : schema;
    // The device protocol's bodies stay open on purpose: a newer device may send fields an older hub ignores.
    const open = new Set([
      '/api/sync/v1/join',
      '/api/sync/v1/push',
      '/api/sync/v1/leases',
      '/api/sync/v1/webhook-endpoints/{endpoint_id}/secrets',
    ]);
    for (const [p, method, operation] of operations()) {
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      if (!schema || open.has(p)) continue;
      const objects = (deref(schema).anyOf ?? [schema]).map(deref).filter((s: any) => s.type === 'object');
      expect(objects.length, `${method} ${p}`).toBeGreaterThan(0);
      for (const object of objects) expect(object.additionalProperties, `${method} ${p}`).toBe(false);
    }
    for (const id of ['WebhookCreateV1Input', 'WebhookCreatePortalInput']) {
      const create = doc.components.schemas[id];
      expect(create.required, id).toEqual(['url']);
      expect(create.properties.enabled.default, id).toBe(true);
    }
  });

  it('lints clean: servers, unique operationIds, error responses, media types', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers?.[0]?.url).toBeTruthy();
    const ids = new Set<string>();
    for (const [path, method, operation] of operations()) {
      const where = `${method} ${path}`;
      expect(operation.operationId, where).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(ids.has(operation.operationId!), where).toBe(false);
      ids.add(operation.operationId!);
      expect(Object.keys(operation.responses), where).toEqual(expect.arrayContaining(['400', '404', '500']));
      if (method !== 'get') {
        expect(Object.keys(operation.responses), where).toEqual(expect.arrayContaining(['413', '415']));
      }
      if (path.startsWith('/api/v1/') || path.startsWith('/api/portal/')) {
        expect(Object.keys(operation.responses), where).toEqual(
          expect.arrayContaining(['401', '403', '429']),
        );
      }
    }
    const content = (path: string) => Object.keys(doc.paths[path].get.responses['200'].content);
    expect(content('/api/portal/{client_id}/export')).toEqual(['application/json', 'application/zip']);
    expect(content('/api/portal/{client_id}/calendar.ics')).toEqual(['text/calendar']);
    expect(content('/api/portal/{client_id}/invoices/{number}/pdf')).toEqual(['application/pdf']);
  });

  it("describes the contract's error responses once, and holds no schema that nothing refers to", () => {
    const plainError = JSON.stringify({
      'application/json': { schema: { $ref: '#/components/schemas/Error' } },
    });
    const shared = ['400', '401', '403', '404', '409', '413', '415', '429', '500'];
    for (const [path, method, operation] of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        // A route's own description of an error (who may, what it means here) stays with the route.
        const copied =
          shared.includes(status) &&
          response.description === 'Default Response' &&
          JSON.stringify(response.content) === plainError;
        expect(copied, `${method} ${path} ${status}`).toBe(false);
      }
    }
    expect(doc.paths['/api/v1/jobs'].get.responses['404']).toEqual({
      $ref: '#/components/responses/NotFound',
    });
    const referred = new Set(
      [...schemas(doc)].map((schema) => schema.$ref).filter((ref): ref is string => typeof ref === 'string'),
    );
    for (const name of Object.keys(doc.components.schemas))
      expect(referred.has(`#/components/schemas/${name}`), name).toBe(true);
  });

  it('holds no unsatisfiable request body (allOf with an empty closed object)', () => {
    for (const schema of schemas(doc)) {
      for (const part of schema.allOf ?? []) {
        const closedAndEmpty =
          part.additionalProperties === false && Object.keys(part.properties ?? {}).length === 0;
        expect(closedAndEmpty, JSON.stringify(schema).slice(0, 200)).toBe(false);
      }
    }
  });

  it('accepts what the API accepts: a client checking bodies against it creates a job and an invoice', async () => {
    for (const resource of ['jobs', 'invoices', 'quotes', 'clients', 'bookings', 'reviews']) {
      const body = doc.paths[`/api/v1/${resource}`].post.requestBody.content['application/json'];
      const validate = validator(body.schema);
      expect(validate(body.examples.example.value), `${resource}: ${JSON.stringify(validate.errors)}`).toBe(
        true,
      );
      expect(validate({ ...body.examples.example.value, unknown_field: 1 }), resource).toBe(false);
    }
    for (const resource of ['jobs', 'invoices']) {
      const body = doc.paths[`/api/v1/${resource}`].post.requestBody.content['application/json'];
      const created = expectOk(await shop.v1('POST', `/${resource}`, { body: body.examples.example.value }));
      expect(created.status, resource).toBe(201);
      const response = doc.paths[`/api/v1/${resource}`].post.responses['201'].content['application/json'];
      expect(validator(response.schema)(created.body), resource).toBe(true);
    }
  });
});
