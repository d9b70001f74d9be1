import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Customer } from '../../shared/schemas/customer';
import { jobberExport } from '../helpers/client-files';
import type { ListPage } from '../helpers/server';
import { screenshot } from './browser';
import { portalCall, type UiContext } from './context';

/** Issue 23: an owner moving from Jobber brings 500 clients, 10 of them unusable, and changes their mind. */
export function importFlows(ui: UiContext) {
  describe('Settings > Import', () => {
    it('imports a Jobber client export of 500 rows with 10 bad ones after a dry run, then undoes it', async () => {
      const { page, server } = ui;
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'shopdesk-ui-import-')), 'jobber-clients.csv');
      const { csv, badRows } = jobberExport(500, 10);
      writeFileSync(file, csv);
      const before = (await portalCall<ListPage<Customer>>(ui, 'GET', '/customers?limit=100')).body.data
        .length;

      await page.goto(`${server.url}/#/settings/import`);
      await page.getByLabel('CSV file').setInputFiles(file);
      await page.getByText('recognised as a Jobber client export').waitFor();
      const preview = page.getByRole('table', { name: 'Preview' });
      await preview.getByText('Client 1 Example').waitFor();
      expect(
        await page.getByRole('region', { name: 'Column mapping' }).getByLabel('E-mails').inputValue(),
      ).toBe('email');
      await screenshot(page, 'import-mapping-preview');

      await page.getByRole('button', { name: 'Dry run' }).click();
      const dryRun = page.getByRole('region', { name: 'Dry run result' });
      await dryRun.getByText('490 customers').waitFor({ timeout: 60_000 });
      expect(await dryRun.textContent()).toContain('10 rows cannot be imported');
      // The run went on in the server's background; the bar the screen followed it with stays, full.
      const bar = page.getByRole('progressbar', { name: 'Progress' });
      expect(await bar.getAttribute('value')).toBe('500');
      expect(await bar.getAttribute('max')).toBe('500');
      await page.getByText('Dry run: 500 of 500 rows read (done)').waitFor();
      const rejected = dryRun.getByRole('table', { name: 'Rejected rows' }).locator('tbody tr');
      expect(await rejected.count()).toBe(10);
      expect(await rejected.first().textContent()).toContain(String(badRows[0]));
      expect(
        (await portalCall<ListPage<Customer>>(ui, 'GET', '/customers?q=client1%40example.com')).body.data,
      ).toHaveLength(0);
      await screenshot(page, 'import-dry-run');

      await page.getByRole('button', { name: 'Import', exact: true }).click();
      const result = page.getByRole('region', { name: 'Import result' });
      await result.getByText('490 customers').waitFor({ timeout: 60_000 });
      await page.getByText('Import: 500 of 500 rows read (done)').waitFor();
      const imported = await portalCall<ListPage<Customer>>(
        ui,
        'GET',
        '/customers?q=client251%40example.com',
      );
      expect(imported.body.data).toMatchObject([{ name: 'Client 251 Example', tags: ['weekly'] }]);
      await screenshot(page, 'import-done');

      await result.getByRole('button', { name: 'Undo import' }).click();
      await page.getByRole('heading', { name: 'Import undone' }).waitFor({ timeout: 60_000 });
      await page.getByText('Undo: 490 of 490 rows taken back (done)').waitFor();
      expect(
        (await portalCall<ListPage<Customer>>(ui, 'GET', '/customers?q=client251%40example.com')).body.data,
      ).toHaveLength(0);
      expect((await portalCall<ListPage<Customer>>(ui, 'GET', '/customers?limit=100')).body.data.length).toBe(
        before,
      );
      await screenshot(page, 'import-undone');
    });
  });
}
