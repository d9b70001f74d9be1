import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { okBody } from '../helpers/api-responses';
import { STEP_TIMEOUT_MS, screenshot } from './browser';
import type { FreshShops } from './fresh-shops';

const PDFJS = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
/** A made-up origin the page's requests are answered on by playwright, never by the network. */
const ORIGIN = 'http://pdf.invalid';

const VIEWER = `<!doctype html><canvas id="page"></canvas><script type="module">
  import * as pdfjs from '/pdfjs/build/pdf.mjs';
  pdfjs.GlobalWorkerOptions.workerSrc = '/pdfjs/build/pdf.worker.mjs';
  const pdf = await pdfjs.getDocument({ url: '/document.pdf', standardFontDataUrl: '/pdfjs/standard_fonts/' }).promise;
  const page = await pdf.getPage(1);
  const viewport = page.getViewport({ scale: 1.5 });
  const canvas = document.getElementById('page');
  canvas.width = viewport.width;
  canvas.height = viewport.height;
  await page.render({ canvasContext: canvas.getContext('2d'), viewport }).promise;
  document.body.dataset.rendered = 'yes';
</script>`;

/**
 * Invoices as the customer sees them: the PDF drawn by pdf.js in Chromium, to look at. The PDF
 * comes from the API and the page that draws it is not the app's, so no owner is signed in.
 */
export function pdfFlows(shops: FreshShops) {
  describe('the PDF a customer gets', () => {
    it('draws Chinese, Japanese and Korean names and lines, as a picture to look at', async () => {
      const shop = await shops.server.createAccount({ business: 'Sparkle Cleaning' });
      const invoice = okBody(
        await shop.portal('POST', '/invoices/create', {
          body: {
            customer_name: '王小明',
            customer_email: 'wang.xiaoming@example.com',
            items: [
              { description: 'Deep clean for 山田 花子 (ひらがな, カタカナ)', quantity: 1, unit_price: 180 },
              { description: '김민준 office, 陳大文 flat', quantity: 2, unit_price: 95 },
            ],
            notes: '谢谢 · 감사합니다 · ありがとう',
          },
        }),
      );
      const pdf = await fetch(
        `${shops.server.url}/api/portal/${shop.clientId}/invoices/${invoice.number}/pdf`,
        {
          headers: { authorization: `Bearer ${shop.portalKey}` },
        },
      );
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      const body = Buffer.from(await pdf.arrayBuffer());

      const page = await shops.context.newPage();
      page.setDefaultTimeout(STEP_TIMEOUT_MS);
      await page.setViewportSize({ width: 940, height: 1220 });
      await page.route(`${ORIGIN}/**`, (route) => {
        const { pathname } = new URL(route.request().url());
        if (pathname === '/') return route.fulfill({ contentType: 'text/html', body: VIEWER });
        if (pathname === '/document.pdf') return route.fulfill({ contentType: 'application/pdf', body });
        const file = path.join(PDFJS, pathname.replace(/^\/pdfjs\//, ''));
        if (!file.startsWith(PDFJS)) return route.abort();
        return route.fulfill({ contentType: 'text/javascript', body: readFileSync(file) });
      });
      await page.goto(`${ORIGIN}/`);
      await page.waitForSelector('body[data-rendered="yes"]');
      await screenshot(page, 'invoice-pdf-cjk');
      await page.close();
    });
  });
}
