import { describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../renderer/lib/format';
import type { Job } from '../../shared/schemas/job';
import type { ServicePlan } from '../../shared/schemas/service-plan';
import { isoWeekday } from '../../shared/time-zone';
import type { ListPage } from '../helpers/server';
import { screenshot } from './browser';
import { portalOk, type UiContext } from './context';

/** The next Tuesday after today in the account's zone (America/Toronto). */
function nextTuesday(): string {
  let day = addDays(todayIn('America/Toronto'), 1);
  while (isoWeekday(day) !== 2) day = addDays(day, 1);
  return day;
}

/** Service plans (docs/recurring-work.md): "every second Tuesday, billed monthly" from the screens. */
export function planFlows(ui: UiContext) {
  describe('service plans', () => {
    it('sets up "every second Tuesday, billed monthly" with a preview, and sees its visits', async () => {
      const { page, server } = ui;
      await page.goto(`${server.url}/#/plans`);
      await page.getByRole('heading', { name: 'No service plans yet' }).waitFor();
      await page.getByRole('link', { name: 'New plan' }).click();
      const form = page.getByRole('form', { name: 'Service plan' });
      // The customer is found by name and the team picked from the team, as on every other form.
      await form.getByLabel('Find a customer').fill('Maya');
      await form.getByRole('button', { name: /Maya Chen/ }).click();
      expect(await form.getByLabel('Customer e-mail').inputValue()).toBe('maya@example.com');
      await form.getByLabel('Title').fill('Garden care');
      await form.getByLabel('Price per visit').fill('80');
      // Someone new joins the team with the plan; a typo cannot slip in as a free-text name.
      await form.getByLabel('Someone new').fill('Priya');
      await form.getByRole('button', { name: 'Add', exact: true }).click();
      await form.getByRole('button', { name: 'Priya (new)' }).waitFor();
      await form.getByLabel('Every how many weeks').fill('2');
      await form.getByLabel('Tue', { exact: true }).check();
      const start = nextTuesday();
      const until = `${Number(start.slice(0, 4)) + 1}-06-30`;
      await form.getByLabel('Start date').fill(start);
      await form.getByLabel('From').fill('09:00');
      await form.getByLabel('To', { exact: true }).fill('11:00');
      await form.getByLabel('Ends').selectOption('until');
      await form.getByLabel('Last date').fill(until);
      await form.getByLabel('Invoices', { exact: true }).selectOption('per_period');
      const summary = page.locator('.plan-summary');
      const year = until.slice(0, 4);
      await expect
        .poll(() => summary.textContent(), { timeout: 5000 })
        .toBe(`Every 2 weeks on Tuesday, 9:00–11:00, until 30 Jun ${year}`);
      const previewed = page.getByRole('list', { name: 'Next visits' }).getByRole('listitem');
      await expect.poll(() => previewed.count()).toBe(6);
      expect(await previewed.first().textContent()).toContain('9:00');
      await screenshot(page, 'plan-new');

      await form.getByRole('button', { name: 'Create plan' }).click();
      await page.getByRole('heading', { name: /Garden care/ }).waitFor();
      const visitRows = page.getByRole('table', { name: 'Visits' }).first().getByRole('row');
      await expect.poll(() => visitRows.count()).toBeGreaterThan(4); // header + 4 fortnights in 8 weeks
      expect(await page.textContent('main')).toContain('A monthly invoice');
      await screenshot(page, 'plan-detail');

      const plans = await portalOk<ListPage<ServicePlan>>(ui, 'GET', '/service-plans');
      expect(plans.data).toHaveLength(1);
      const visits = await portalOk<ListPage<Job>>(ui, 'GET', `/service-plans/${plans.data[0]!.id}/visits`);
      expect(visits.data[0]).toMatchObject({ occurrence_date: start, assignees: ['Priya'], price: 80 });

      // A visit is an ordinary job that shows its plan.
      await visitRows.nth(1).click();
      await page.getByRole('heading', { name: 'Service plan' }).waitFor();
      await screenshot(page, 'job-of-plan');
      await page.getByRole('link', { name: 'Open the plan' }).click();
      await page.getByRole('link', { name: 'Service plans' }).first().click();
      const row = page.getByRole('row', { name: /Garden care/ });
      await row.waitFor();
      expect(await row.textContent()).toContain('Every 2 weeks on Tuesday');
      await screenshot(page, 'plans');
    });

    it('edits the plan: the preview follows, and upcoming visits move', async () => {
      const { page, server } = ui;
      const plans = await portalOk<ListPage<ServicePlan>>(ui, 'GET', '/service-plans');
      await page.goto(`${server.url}/#/plans/${plans.data[0]!.id}/edit`);
      const form = page.getByRole('form', { name: 'Service plan' });
      await form.getByLabel('From').fill('10:00');
      await form.getByLabel('To', { exact: true }).fill('12:00');
      await expect.poll(() => page.locator('.plan-summary').textContent()).toContain('10:00–12:00');
      // Leaving with the change unsaved asks first; staying keeps what was typed.
      const asked = page.waitForEvent('dialog');
      const clicked = page.getByRole('link', { name: 'Garden care' }).first().click();
      const question = await asked;
      expect(question.message()).toBe('Leave this page? Your changes are not saved.');
      await question.dismiss();
      await clicked;
      await page.waitForURL(/\/edit$/);
      expect(await form.getByLabel('From').inputValue()).toBe('10:00');
      await form.getByRole('button', { name: 'Save plan' }).click();
      await page.getByText('Every 2 weeks on Tuesday, 10:00–12:00').first().waitFor();
      const visits = await portalOk<ListPage<Job>>(ui, 'GET', `/service-plans/${plans.data[0]!.id}/visits`);
      // 10:00 in Toronto (EST) is 15:00 UTC.
      for (const visit of visits.data) expect(visit.scheduled_start).toMatch(/T15:00:00Z$/);
    });
  });
}
