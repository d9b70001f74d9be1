import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Invoice } from '../../shared/schemas/invoice';
import { screenshot } from './browser';
import { money, portalOk, type UiContext } from './context';

const PHONE = { width: 390, height: 844 };

/** A phone's browser (touch, mobile viewport) for the session's signed-in page (portal-session.ts). */
export const PHONE_DEVICE = { viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/**
 * Nothing is wider than the screen: the page does not scroll sideways, and every amount, badge,
 * field and button shows whole, inside the viewport. Returns what does not fit, to name it.
 */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = window.innerWidth;
    if (document.documentElement.scrollWidth > width)
      problems.push(`page is ${document.documentElement.scrollWidth}px wide`);
    // Folded, the menu is one bar, however short the page below it.
    const bar = document.querySelector('.sidebar');
    if (bar && document.querySelector('.menu-button[aria-expanded="false"]')) {
      const height = bar.getBoundingClientRect().height;
      if (height > 100) problems.push(`the folded menu bar is ${height}px tall`);
    }
    const selector =
      '.num, .stat-value, .totals dd, .badge, .input, .btn, [data-testid^="doc-"], [data-testid^="form-"], .event';
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      const name = `${element.className || element.tagName} "${(element.textContent ?? '').trim().slice(0, 30)}"`;
      if (box.left < -0.5 || box.right > width + 0.5) problems.push(`${name} spans ${box.left}–${box.right}`);
      // Inputs scroll their own text by design; everything else must show its text whole.
      if (element.tagName !== 'INPUT' && element.scrollWidth > element.clientWidth + 1)
        problems.push(`${name} is clipped (${element.scrollWidth} > ${element.clientWidth})`);
    }
    return problems;
  });
}

async function expectFits(page: Page, what: string) {
  expect(await overflowing(page), `${what} at 390 px`).toEqual([]);
}

/** Issue 13 item 11: the main flows at 390 × 844 on a touch screen. */
export function phoneFlows(ui: UiContext) {
  describe('on a phone', () => {
    let page: Page;
    beforeAll(() => {
      page = ui.page;
    });

    it('folds the navigation behind a menu button and shows the dashboard in one column', async () => {
      await page.waitForSelector('[data-testid="dashboard-loaded"]');
      const menu = page.getByRole('button', { name: 'Menu' });
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      expect(await page.getByRole('link', { name: 'Invoices' }).isVisible()).toBe(false);
      await expectFits(page, 'the dashboard');
      // The stat cards stack: each one is nearly the page's width.
      const stat = (await page.locator('.stat').first().boundingBox())!;
      expect(stat.width).toBeGreaterThan(PHONE.width - 60);
      await screenshot(page, 'phone-dashboard');

      await menu.click();
      expect(await menu.getAttribute('aria-expanded')).toBe('true');
      await page.getByRole('link', { name: 'Customers' }).waitFor();
      await screenshot(page, 'phone-menu-open');
      await page.keyboard.press('Escape');
      await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false');
      await menu.click();
      await page.getByRole('link', { name: 'Customers' }).click();
      await page.getByRole('button', { name: 'New customer' }).first().waitFor();
      // Picking a screen folds the menu again.
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      expect(await page.getByRole('link', { name: 'Invoices' }).isVisible()).toBe(false);
    });

    it('lists customers as cards and adds one in a one-column dialog', async () => {
      await page.getByText('Oliver Grant').first().waitFor();
      expect(await page.locator('table thead').first().isVisible()).toBe(false);
      await expectFits(page, 'the customer list');
      await screenshot(page, 'phone-customers');

      await page.getByRole('button', { name: 'New customer' }).first().click();
      const dialog = page.getByRole('dialog');
      const name = dialog.getByLabel('Name');
      const email = dialog.getByLabel('E-mail');
      const [nameBox, emailBox] = [(await name.boundingBox())!, (await email.boundingBox())!];
      // One column: the fields sit under each other, wide and tall enough for a thumb.
      expect(emailBox.y).toBeGreaterThan(nameBox.y + nameBox.height - 1);
      expect(nameBox.width).toBeGreaterThan(280);
      expect(nameBox.height).toBeGreaterThanOrEqual(44);
      await name.fill('Kim Min-jun');
      await email.fill('minjun@example.com');
      await expectFits(page, 'the new customer dialog');
      await screenshot(page, 'phone-customer-new');
      await dialog.getByRole('button', { name: 'Add customer' }).click();
      await page.getByRole('heading', { name: 'Kim Min-jun' }).waitFor();
      await expectFits(page, 'the customer page');
    });

    it('creates an invoice with a huge line, sends it and records a payment, amounts never clipped', async () => {
      await page.goto(`${ui.server.url}/#/invoices/new?email=minjun%40example.com&name=Kim%20Min-jun`);
      const form = page.getByRole('form', { name: 'New invoice' });
      await form.waitFor();
      await form
        .getByLabel('Description of line 1')
        .fill('Move-out deep clean, 4 bedrooms, carpets and windows');
      await form.getByLabel('Quantity of line 1').fill('12');
      await form.getByLabel('Unit price of line 1').fill('98765.43');
      await form.getByRole('button', { name: 'Add line' }).click();
      await form.getByLabel('Description of line 2').fill('Oven');
      await form.getByLabel('Unit price of line 2').fill('45');
      await page.getByTestId('form-total').waitFor();
      await expectFits(page, 'the invoice form');
      const description = (await form.getByLabel('Description of line 1').boundingBox())!;
      expect(description.width).toBeGreaterThan(280);
      await screenshot(page, 'phone-invoice-new');

      await form.getByRole('button', { name: 'Create invoice' }).click();
      const heading = page.getByRole('heading', { name: /Invoice INV-/ });
      await heading.waitFor();
      const number = (await heading.textContent())!.match(/INV-\d+/)![0];
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await page.getByTestId('document-email').waitFor();
      await page.getByRole('button', { name: 'Record payment' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Amount').fill('500');
      await dialog.getByRole('button', { name: 'Record payment' }).click();
      await page.locator('.badge', { hasText: 'Partially paid' }).waitFor();
      const invoice = await portalOk<Invoice>(ui, 'GET', `/invoices/${number}`);
      expect(await page.getByTestId('doc-total').textContent()).toBe(money(invoice.total));
      expect(await page.getByTestId('doc-balance').textContent()).toBe(money(invoice.balance));
      await expectFits(page, 'the invoice');
      await screenshot(page, 'phone-invoice-detail');
      // Each screen names the tab, so history and the task switcher say where the owner was.
      expect(await page.title()).toBe(`Invoice ${number} · Sparkle Cleaning · Shopdesk`);

      await page.goto(`${ui.server.url}/#/invoices`);
      await page.getByText(number).first().waitFor();
      expect(await page.title()).toBe('Invoices · Sparkle Cleaning · Shopdesk');
      await expectFits(page, 'the invoice list');
      await screenshot(page, 'phone-invoices');
    });

    /** Each screen of `screens` at phone size: it loads, fits, and is photographed for people to look at. */
    const walk = async (screens: ReadonlyArray<readonly [hash: string, name: string, ready: string]>) => {
      for (const [hash, name, ready] of screens) {
        await page.goto(`${ui.server.url}/#/${hash}`);
        await page.waitForSelector(ready);
        await page.locator('.skeleton').first().waitFor({ state: 'detached' });
        await expectFits(page, hash);
        await screenshot(page, name);
      }
    };

    // The screens are two tests, each within the test time limit also while screenshots are taken.
    it('shows the jobs week one day under another, the job list as cards, and the work screens in one column', async () => {
      await walk([
        // The dashboard again, now owed more than a million: the amount still fits its card.
        ['dashboard', 'phone-dashboard-large-amounts', '[data-testid="dashboard-loaded"]'],
        ['jobs', 'phone-jobs-week', '[data-testid="week-view"]'],
        ['team', 'phone-team', 'main h1'],
        ['quotes', 'phone-quotes', 'main h1'],
        ['bookings', 'phone-bookings', 'main h1'],
        ['messages', 'phone-messages', 'main h1'],
        ['customers/maya%40example.com', 'phone-customer-detail', '[data-testid="customer-totals"]'],
        ['plans', 'phone-plans', 'main h1'],
        ['plans/new', 'phone-plan-new', 'form'],
        ['sales-tax', 'phone-sales-tax', 'main h1'],
      ]);

      await page.goto(`${ui.server.url}/#/jobs`);
      await page.getByRole('button', { name: 'List', exact: true }).click();
      await page.locator('table').first().waitFor();
      await expectFits(page, 'the job list');
      await screenshot(page, 'phone-jobs-list');
    });

    it('shows the insight screens and every settings tab in one column, chart labels at one size', async () => {
      await walk([
        ['settings/business', 'phone-settings', 'form'],
        ['analytics', 'phone-analytics', '.chart'],
        ['reviews', 'phone-reviews', '.rating-bars'],
        ['report', 'phone-report', '.stat'],
        ['benchmark', 'phone-benchmark', '.chart'],
        ['settings/integrations', 'phone-settings-integrations', 'main h1'],
        ['settings/webhooks', 'phone-settings-webhooks', 'main h1'],
        ['settings/backups', 'phone-settings-backups', 'main h1'],
        ['settings/sync', 'phone-settings-sync', 'main h1'],
        ['settings/reminders', 'phone-settings-reminders', 'form'],
      ]);

      // Chart labels are the stylesheet's size whatever the chart's width, and counts are whole.
      await page.goto(`${ui.server.url}/#/analytics`);
      await page.waitForSelector('.chart');
      expect(await page.title()).toBe('Analytics · Sparkle Cleaning · Shopdesk');
      const labels = await page.locator('.chart text').evaluateAll((texts) =>
        texts.map((text) => ({
          size: getComputedStyle(text).fontSize,
          height: Math.round(text.getBoundingClientRect().height),
          chart: text.closest('svg')?.getAttribute('aria-label'),
          text: text.textContent,
        })),
      );
      expect(new Set(labels.map((label) => label.height)).size, JSON.stringify(labels)).toBe(1);
      const jobTicks = labels.filter(
        (label) => label.chart === 'Jobs completed' && /^[\d.,]+$/.test(label.text!),
      );
      expect(jobTicks.length).toBeGreaterThan(1);
      for (const tick of jobTicks) expect(tick.text).toMatch(/^\d+$/);
    });
  });
}
