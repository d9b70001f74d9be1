import { describe, expect, it } from 'vitest';
import { expectOk, okBody } from '../helpers/api-responses';
import { screenshot } from './browser';
import { type FreshShops, freshShop } from './fresh-shops';

/** Issue 20: customers reached by phone or address only, possible duplicates, and merging them. */
export function customerFlows(ui: FreshShops) {
  describe('customers without e-mail', () => {
    it('adds Hank by phone, points out his duplicate, merges it, and bills him without e-mail', async () => {
      const { shop, page } = await freshShop(ui);
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${ui.server.url}/#/customers`);
      await page.getByRole('button', { name: 'New customer' }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Name').fill('Hank Miller');
      await dialog.getByRole('button', { name: 'Add customer' }).click();
      const refused = dialog.locator('.field-error', { hasText: 'at least one way to reach them' });
      await refused.waitFor();
      await screenshot(page, 'customer-new-no-way-to-reach');
      await dialog.getByLabel('Phone').fill('604 555 0199');
      await dialog.getByLabel('Address').fill('1200 Strata Way, Vancouver');
      await dialog.getByRole('button', { name: 'Add customer' }).click();
      await page.getByRole('heading', { name: 'Hank Miller' }).waitFor();
      await page.getByText('No e-mail · 604 555 0199').waitFor();
      await screenshot(page, 'customer-without-email');

      // The same Hank typed again is pointed out, and can still be added.
      await page.goto(`${ui.server.url}/#/customers`);
      await page.getByRole('button', { name: 'New customer' }).first().click();
      await dialog.getByLabel('Name').fill('hank miller');
      await dialog.getByLabel('Phone').fill('+1 604-555-0199');
      const warning = dialog.getByTestId('possible-duplicates');
      await warning.waitFor();
      expect(await warning.textContent()).toContain('Possible duplicate of Hank Miller');
      expect(await warning.textContent()).toContain('same name and phone');
      await screenshot(page, 'customer-possible-duplicate');
      await dialog.getByRole('button', { name: 'Add customer' }).click();
      await page.getByRole('heading', { name: 'hank miller' }).waitFor();
      const listed = expectOk(await shop.portal('GET', '/customers?q=hank'));
      expect(listed.body.data).toHaveLength(2);

      // The owner merges the second record into the first.
      const first = listed.body.data.find((c: { name: string }) => c.name === 'Hank Miller');
      await page.goto(`${ui.server.url}/#/customers/${first!.id}`);
      await page.getByRole('button', { name: 'Merge a duplicate' }).click();
      await page.getByRole('dialog').getByLabel('Find the duplicate').fill('hank');
      await page
        .getByRole('list', { name: 'Customers to merge' })
        .getByRole('button', { name: /hank miller/ })
        .click();
      await screenshot(page, 'customer-merge-confirm');
      await page.getByRole('dialog').getByRole('button', { name: 'Merge' }).click();
      await page.locator('.toast', { hasText: 'hank miller merged into Hank Miller' }).waitFor();
      expect(
        okBody(await shop.portal('GET', '/customers?q=hank')).data.map((c: { id: string }) => c.id),
      ).toEqual([first!.id]);

      // His places: a strata council's buildings, with the gate code the crew needs.
      const places = page.getByRole('list', { name: 'Places' });
      for (const [label, street, access] of [
        ['Building A', '100 Harbour St', 'Gate code 4411'],
        ['Building B', '102 Harbour St', 'Key safe 9090'],
      ]) {
        await page.getByRole('button', { name: 'Add place' }).click();
        const placeForm = page.getByRole('form', { name: 'Place' });
        await placeForm.getByLabel('Label').fill(label!);
        await placeForm.getByLabel('Street').fill(street!);
        await placeForm.getByLabel('City').fill('Vancouver');
        await placeForm.getByLabel('Access notes').fill(access!);
        if (label === 'Building B') await screenshot(page, 'customer-place-dialog');
        await placeForm.getByRole('button', { name: 'Add place' }).click();
        await places.getByText(label!).waitFor();
      }
      // The first place is the default; the owner makes Building B the default instead.
      const buildingB = places.locator('li', { hasText: 'Building B' });
      await buildingB.getByRole('button', { name: 'Make default' }).click();
      await buildingB.getByText('Default').waitFor();
      expect(await places.locator('li', { hasText: 'Building A' }).textContent()).toContain(
        'Crew: Gate code 4411',
      );
      await screenshot(page, 'customer-places');
      const stored = okBody(await shop.portal('GET', `/properties?customer_id=${first!.id}`)).data;
      expect(stored.find((p) => p.label === 'Building B')!.is_default).toBe(true);

      // An invoice for him: picked by id, and the page says why it cannot be e-mailed.
      await page.getByRole('link', { name: 'New invoice' }).click();
      const form = page.getByRole('form', { name: 'New invoice' });
      await form.waitFor();
      expect(await form.getByTestId('picked-customer').textContent()).toBe('Hank Miller');
      await form.getByLabel('Description of line 1').fill('Window cleaning, 3 buildings');
      await form.getByLabel('Quantity of line 1').fill('3');
      await form.getByLabel('Unit price of line 1').fill('150');
      await form.getByRole('button', { name: 'Create invoice' }).click();
      const notice = page.getByTestId('no-email-notice');
      await notice.waitFor();
      expect(await notice.textContent()).toContain('Hank Miller has no e-mail address');
      expect(await page.getByRole('button', { name: 'Send', exact: true }).count()).toBe(0);
      expect(await notice.getByRole('link', { name: 'Download the PDF' }).getAttribute('href')).toContain(
        '/pdf',
      );
      await screenshot(page, 'invoice-customer-without-email');
      await page.close();
    });
  });
}
