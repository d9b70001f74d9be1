import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LOGO_BYTES } from '../../shared/schemas/business-logo';
import { expectStatus, okBody } from '../helpers/api-responses';
import { JPEG_IMAGE, pngImage } from '../helpers/images';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

let server: TestServer;
let shop: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  shop = await server.createAccount({ business: 'Bright Panes' });
});
afterAll(() => server.stop());

const upload = (bytes: Buffer, key?: string | null) =>
  shop.portal('PUT', '/logo', {
    body: { data: bytes.toString('base64') },
    ...(key !== undefined && { key }),
  });

describe('the business logo (Settings › Business)', () => {
  it('keeps an uploaded PNG, serves it back, and replaces it with a JPEG', async () => {
    const png = pngImage(40, 20);
    const saved = await upload(png);
    expectStatus(saved, 200);
    expect(saved.body).toMatchObject({ content_type: 'image/png', size_bytes: png.length });
    expect(okBody(await shop.portal('GET', '/logo'))).toEqual(saved.body);
    const image = await fetch(`${server.url}/api/portal/${shop.clientId}/logo/image`, {
      headers: { authorization: `Bearer ${shop.portalKey}` },
    });
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);

    const replaced = await upload(JPEG_IMAGE);
    expect(replaced.body).toMatchObject({ content_type: 'image/jpeg', size_bytes: JPEG_IMAGE.length });
    const rows = await server.ctx.db.selectFrom('business_logos').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: shop.clientId,
      account_id: shop.clientId,
      content_type: 'image/jpeg',
    });
  });

  it('reads the type from the bytes: a GIF or text is refused, whatever it is called', async () => {
    for (const bytes of [Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'), Buffer.from('logo.png')]) {
      const refused = await upload(bytes);
      expectStatus(refused, 400);
      expect(refused.body.error).toMatchObject({ code: 'validation_failed', param: 'data' });
      expect(refused.body.error.message).toMatch(/PNG or a JPEG/);
    }
    const garbled = await shop.portal('PUT', '/logo', { body: { data: 'not base64!' } });
    expectStatus(garbled, 400);
    expect(okBody(await shop.portal('GET', '/logo')).content_type).toBe('image/jpeg');
  });

  it('refuses a logo past 512 KB with 413, keeping the one it had', async () => {
    const big = pngImage(430, 430, true);
    expect(big.length).toBeGreaterThan(MAX_LOGO_BYTES);
    const refused = await upload(big);
    expectStatus(refused, 413);
    expect(refused.body.error).toMatchObject({ code: 'payload_too_large' });
    expect(refused.body.error.message).toMatch(/at most 512 KB/);
    expect(okBody(await shop.portal('GET', '/logo')).content_type).toBe('image/jpeg');
  });

  it('is refused to a v1 key and to a caller without credentials', async () => {
    for (const [key, status] of [
      [shop.v1Key, 403],
      [null, 401],
    ] as const) {
      expect((await upload(pngImage(4, 4), key)).status).toBe(status);
      expect((await shop.portal('GET', '/logo', { key })).status).toBe(status);
      expect((await shop.portal('GET', '/logo/image', { key })).status).toBe(status);
      expect((await shop.portal('DELETE', '/logo', { key })).status).toBe(status);
    }
    const other = await server.createAccount({ business: 'Other Co' });
    expect((await shop.portal('GET', '/logo', { key: other.portalKey })).status).toBe(403);
    expect(okBody(await shop.portal('GET', '/logo')).content_type).toBe('image/jpeg');
  });

  it('is removed, after which there is none', async () => {
    expect((await shop.portal('DELETE', '/logo')).status).toBe(204);
    expect((await shop.portal('GET', '/logo')).status).toBe(404);
    expect((await shop.portal('GET', '/logo/image')).status).toBe(404);
    expect((await shop.portal('DELETE', '/logo')).status).toBe(204);
  });
});
