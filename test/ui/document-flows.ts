import { describe, expect, it } from 'vitest';
import { computeTotals, fromCents } from '../../shared/money';
import type { Customer } from '../../shared/schemas/customer';
import type { Invoice } from '../../shared/schemas/invoice';
import type { CustomerWithHistory } from '../../shared/schemas/overview';
import type { Quote } from '../../shared/schemas/quote';
import type { Review } from '../../shared/schemas/review';
import type { ListPage } from '../helpers/server';
import { screenshot } from './browser';
import { money, portalCall, portalOk, type UiContext } from './context';

/** Customers, draft invoices and quotes, and reviews: the edits the first pass left out. */
export function documentFlows(ui: UiContext) {
  describe('customers, drafts and reviews', () => {
    it('shows a customer with the totals of their history', async () => {
      const { page, server } = ui;
      const stored = await portalOk<CustomerWithHistory>(ui, 'GET', '/customers/maya%40example.com');
      await page.goto(`${server.url}/#/customers/maya%40example.com`);
      const totals = page.getByTestId('customer-totals');
      await totals.waitFor();
      const text = await totals.textContent();
      expect(text).toContain(`Invoiced${money(stored.history.totals.invoiced)}`);
      expect(text).toContain(`Paid${money(stored.history.totals.paid)}`);
      expect(text).toContain(`Outstanding${money(stored.history.totals.outstanding)}`);
      expect(text).toContain(`Lifetime value${money(stored.lifetime_value)}`);
      const jobs = page.getByRole('table', { name: 'Jobs' });
      for (const job of stored.history.jobs) await jobs.getByText(job.job_number).waitFor();
      await screenshot(page, 'customer-detail');
    });

    it('edits a customer, ties the refused field to its message, and removes a tag', async () => {
      const { page, server } = ui;
      await page.goto(`${server.url}/#/customers/lucas%40example.com`);
      await page.getByRole('heading', { name: 'Lucas Martin' }).waitFor();

      await page.getByRole('button', { name: 'Edit details' }).click();
      const dialog = page.getByRole('dialog');
      expect(await dialog.getByLabel('Name').evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });

      await page.getByRole('button', { name: 'Edit details' }).click();
      await dialog.getByLabel('Name').fill('Lucas M. Martin');
      await dialog.getByLabel('Phone').fill('+1 416 555 7788');
      await dialog.getByLabel('E-mail').fill('not an e-mail');
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      const email = dialog.getByLabel('E-mail');
      await dialog.locator('.field-error').waitFor();
      expect(await email.getAttribute('aria-invalid')).toBe('true');
      const describedBy = (await email.getAttribute('aria-describedby'))!;
      expect(await page.locator(`[id="${describedBy}"]`).textContent()).toMatch(/e-?mail/i);
      await screenshot(page, 'customer-edit-error');

      await email.fill('lucas.martin@example.com');
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('heading', { name: 'Lucas M. Martin' }).waitFor();
      const saved = await portalOk<Customer>(ui, 'GET', '/customers/lucas.martin%40example.com');
      // An old link by e-mail is rewritten to the id, which survives the change of e-mail.
      expect(page.url()).toContain(`#/customers/${saved.id}`);
      expect(saved).toMatchObject({ name: 'Lucas M. Martin', phone: '+1 416 555 7788' });
      expect((await portalCall(ui, 'GET', '/customers/lucas%40example.com')).status).toBe(404);

      expect(saved.tags).toContain('vip');
      await page.getByRole('button', { name: 'Remove tag vip' }).click();
      await page.getByRole('list', { name: 'Tags' }).getByText('No tags.').waitFor();
      expect(
        (await portalOk<Customer>(ui, 'GET', '/customers/lucas.martin%40example.com')).tags,
      ).not.toContain('vip');
    });

    it('edits a draft invoice: the live totals change and the server agrees', async () => {
      const { page, server } = ui;
      const draft = await portalOk<Invoice>(ui, 'POST', '/invoices/create', {
        customer_email: 'priya@example.com',
        items: [{ description: 'Weekly clean', quantity: 1, unit_price: 100 }],
      });
      await page.goto(`${server.url}/#/invoices/${draft.number}`);
      await page.getByRole('link', { name: 'Edit', exact: true }).click();
      const form = page.getByRole('form', { name: `Edit invoice ${draft.number}` });
      await form.waitFor();
      expect(await form.getByLabel('Description of line 1').inputValue()).toBe('Weekly clean');
      const before = await page.getByTestId('form-total').textContent();
      expect(before).toBe(money(draft.total));

      await form.getByLabel('Quantity of line 1').fill('2.5');
      await form.getByRole('button', { name: 'Add line' }).click();
      await form.getByLabel('Description of line 2').fill('Oven degrease');
      await form.getByLabel('Unit price of line 2').fill('45.55');
      await form.getByRole('button', { name: 'Remove tax 2' }).click();
      const expected = computeTotals(
        [
          { description: 'a', quantity: 2.5, unit_price: 100 },
          { description: 'b', quantity: 1, unit_price: 45.55 },
        ],
        [{ name: 'GST', rate: 0.05 }],
      );
      const shown = await page.getByTestId('form-total').textContent();
      expect(shown).toBe(money(fromCents(expected.total_cents)));
      expect(shown).not.toBe(before);
      await screenshot(page, 'invoice-edit');

      await form.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('heading', { name: new RegExp(`Invoice ${draft.number}`) }).waitFor();
      await page.getByTestId('doc-total').getByText(shown!).waitFor();
      const saved = await portalOk<Invoice>(ui, 'GET', `/invoices/${draft.number}`);
      expect(money(saved.total)).toBe(shown);
      expect(saved.items).toHaveLength(2);
      expect(saved.taxes.map((t: { name: string }) => t.name)).toEqual(['GST']);

      await page.getByRole('button', { name: 'Void' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Void invoice' }).click();
      await page.locator('.badge', { hasText: 'Void' }).waitFor();
      expect((await portalOk<Invoice>(ui, 'GET', `/invoices/${draft.number}`)).status).toBe('void');
    });

    it('shows the limits while the owner types, and a total over the limit says so', async () => {
      const { page, server } = ui;
      await page.goto(`${server.url}/#/invoices/new?email=maya%40example.com&name=Maya%20Chen`);
      const form = page.getByRole('form', { name: 'New invoice' });
      await form.getByLabel('Description of line 1').fill('x'.repeat(501));
      await form.getByText('Must be at most 500 characters').waitFor();
      await form.getByLabel('Description of line 1').fill('Office tower, every floor');
      await form.getByLabel('Quantity of line 1').fill('250000');
      await form.getByLabel('Unit price of line 1').fill('99999999999999999999999');
      // The limits come from the shared schema, beside their fields, before anything is sent.
      await form.getByText('Must be at most 100,000', { exact: true }).waitFor();
      await form.getByText('Must be at most 1,000,000', { exact: true }).waitFor();
      const preview = (await page.getByTestId('form-totals').textContent())!;
      expect(preview).toContain('Over the limit');
      expect(preview).not.toMatch(/NaN|Infinity|∞|e\+|\$/);
      expect(await page.getByTestId('line-amount-0').textContent()).toBe('Over the limit');
      await screenshot(page, 'invoice-new-over-limit');

      await form.getByLabel('Quantity of line 1').fill('100000');
      await form.getByLabel('Unit price of line 1').fill('1000000');
      const expected = computeTotals(
        [{ description: 'a', quantity: 100_000, unit_price: 1_000_000 }],
        [
          { name: 'GST', rate: 0.05 },
          { name: 'PST', rate: 0.07 },
        ],
      );
      const shown = await page.getByTestId('form-total').textContent();
      expect(shown).toBe(money(fromCents(expected.total_cents)));
      await form.getByRole('button', { name: 'Create invoice' }).click();
      const heading = page.getByRole('heading', { name: /Invoice INV-/ });
      await heading.waitFor();
      const number = (await heading.textContent())!.match(/INV-\d+/)![0];
      expect(money((await portalOk<Invoice>(ui, 'GET', `/invoices/${number}`)).total)).toBe(shown);
    });

    it('deletes a draft quote and edits another one', async () => {
      const { page, server } = ui;
      const body = {
        customer_email: 'maya@example.com',
        items: [{ description: 'Carpet shampoo', quantity: 1, unit_price: 80 }],
      };
      const doomed = await portalOk<Quote>(ui, 'POST', '/quotes/create', body);
      await page.goto(`${server.url}/#/quotes/${doomed.number}`);
      await page.getByRole('button', { name: 'Delete draft' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete draft' }).click();
      await page.getByRole('heading', { name: 'Quotes', exact: true }).waitFor();
      expect((await portalCall(ui, 'GET', `/quotes/${doomed.number}`)).status).toBe(404);

      const kept = await portalOk<Quote>(ui, 'POST', '/quotes/create', body);
      await page.goto(`${server.url}/#/quotes/${kept.number}/edit`);
      const form = page.getByRole('form', { name: `Edit quote ${kept.number}` });
      await form.getByLabel('Unit price of line 1').fill('95');
      await form.getByLabel('Valid until').fill('2099-01-31');
      await form.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('heading', { name: new RegExp(`Quote ${kept.number}`) }).waitFor();
      const saved = await portalOk<Quote>(ui, 'GET', `/quotes/${kept.number}`);
      expect(saved.items[0]!.unit_price).toBe(95);
      expect(saved.valid_until).toBe('2099-01-31');
      expect(await page.getByTestId('doc-total').textContent()).toBe(money(saved.total));
    });

    it('records a review by hand', async () => {
      const { page, server } = ui;
      await page.goto(`${server.url}/#/reviews`);
      await page.getByRole('button', { name: 'Record a review' }).click();
      const dialog = page.getByRole('dialog');
      // Focus starts on the chosen star, and the arrow keys move it, as in any radio group.
      expect(
        await dialog.getByRole('radio', { name: '5 stars' }).evaluate((el) => el === document.activeElement),
      ).toBe(true);
      await page.keyboard.press('ArrowLeft');
      expect(await dialog.getByRole('radio', { name: '4 stars' }).isChecked()).toBe(true);
      await dialog.getByLabel('What they said').fill('Came back the same day to fix a streak.');
      await dialog.getByLabel('Customer e-mail').fill('priya@example.com');
      await dialog.getByLabel('Source').fill('phone');
      await screenshot(page, 'review-record');
      await dialog.getByRole('button', { name: 'Record review' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByText('Came back the same day to fix a streak.').waitFor();
      const latest = (await portalOk<ListPage<Review>>(ui, 'GET', '/reviews?limit=1')).data[0];
      expect(latest).toMatchObject({ rating: 4, source: 'phone', customer: { email: 'priya@example.com' } });
    });
  });
}
