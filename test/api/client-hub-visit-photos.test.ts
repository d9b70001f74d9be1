import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueClientLink } from '../../server/domain/client-links';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { JPEG_IMAGE } from '../helpers/images';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

/**
 * The crew's photos on the customer's page (docs/crew.md, "The phone"): shown on a completed
 * visit's page only while the owner turns on crew_photos_in_client_hub, served under the link,
 * never another customer's.
 */
let office: TestServer;
let shop: TestAccount;
let maya: string;
let mayaVisit: string;
let omarVisit: string;
const MAYA_PHOTO = 'jph_01jz0000000000000000000011';
const OMAR_PHOTO = 'jph_01jz0000000000000000000012';

async function page(path: string) {
  const response = await fetch(`${office.url}${path}`, { redirect: 'manual' });
  return {
    status: response.status,
    headers: response.headers,
    body: Buffer.from(await response.arrayBuffer()),
  };
}

async function completedVisit(customerId: string): Promise<string> {
  const created = expectOk(
    await shop.portal('POST', '/jobs/create', {
      body: { customer_id: customerId, title: 'Gutter clean', scheduled_start: '2026-11-02T14:00:00Z' },
    }),
  );
  expect((await shop.portal('POST', `/jobs/${created.body.id}/complete`)).status).toBe(200);
  return created.body.id;
}

async function photo(jobId: string, id: string) {
  await office.ctx.db
    .insertInto('job_photos')
    .values({
      id,
      account_id: shop.clientId,
      job_id: jobId,
      member_id: null,
      content_type: 'image/jpeg',
      size_bytes: JPEG_IMAGE.length,
      data: JPEG_IMAGE.toString('base64'),
      created_at: '2026-11-02T15:00:00Z',
    })
    .execute();
}

const setPhotos = (on: boolean) =>
  shop
    .portal('PUT', '/config', { body: { crew_photos_in_client_hub: on } })
    .then((r) => expectStatus(r, 200));

beforeAll(async () => {
  office = await startTestServer();
  shop = await office.createAccount({ business: 'Sparkle Cleaning' });
  const customer = (name: string, email: string) =>
    shop.portal('POST', '/customers', { body: { name, email } }).then((r) => okBody(r).id);
  const mayaId = await customer('Maya Chen', 'maya@example.com');
  const omarId = await customer('Omar Haddad', 'omar@example.com');
  mayaVisit = await completedVisit(mayaId);
  omarVisit = await completedVisit(omarId);
  await photo(mayaVisit, MAYA_PHOTO);
  await photo(omarVisit, OMAR_PHOTO);
  const link = await office.ctx.db
    .transaction()
    .execute((tx) => issueClientLink(tx, office.ctx, shop.clientId, mayaId));
  maya = `/c/${link.token}`;
}, 120_000);
afterAll(() => office.stop());

describe("the crew's photos on the customer's page", { timeout: 60_000 }, () => {
  it('needs the install to serve the client hub, which turning the photos on leaves as it was', async () => {
    await setPhotos(true);
    const refused = await page(`${maya}/visits/${mayaVisit}`);
    expectStatus(refused, 404);
    expect(refused.body.toString()).toContain('This link no longer works');
    expect((await shop.portal('PUT', '/config', { body: { serve_client_hub: true } })).status).toBe(200);
    await setPhotos(false);
    expect(okBody(await shop.portal('GET', '/config'))).toMatchObject({ serve_client_hub: true });
  });

  it('shows a completed visit’s photos while the setting is on, and serves them under the link', async () => {
    await setPhotos(true);
    const visit = await page(`${maya}/visits/${mayaVisit}`);
    expectStatus(visit, 200);
    const src = `${maya}/visits/${mayaVisit}/photos/${MAYA_PHOTO}`;
    expect(visit.body.toString()).toContain(`<img src="${src}"`);
    expect(visit.headers.get('content-security-policy')).toContain("img-src 'self' data:");
    expect(visit.headers.get('content-security-policy')).toContain("script-src 'self'");
    const image = await page(src);
    expectStatus(image, 200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect(image.headers.get('cache-control')).toMatch(/^private/);
    expect(image.body.equals(JPEG_IMAGE)).toBe(true);
  });

  it('shows and serves nothing while the setting is off', async () => {
    await setPhotos(false);
    const visit = await page(`${maya}/visits/${mayaVisit}`);
    expectStatus(visit, 200);
    expect(visit.body.toString()).not.toContain('/photos/');
    expect((await page(`${maya}/visits/${mayaVisit}/photos/${MAYA_PHOTO}`)).status).toBe(404);
  });

  it("answers 404 for another customer's photo, through either visit", async () => {
    await setPhotos(true);
    expect((await page(`${maya}/visits/${omarVisit}/photos/${OMAR_PHOTO}`)).status).toBe(404);
    expect((await page(`${maya}/visits/${mayaVisit}/photos/${OMAR_PHOTO}`)).status).toBe(404);
    expect((await page(`${maya}/visits/${omarVisit}`)).status).toBe(404);
    expect((await page(`/c/lnk_nope.secret/visits/${mayaVisit}/photos/${MAYA_PHOTO}`)).status).toBe(404);
  });
});
