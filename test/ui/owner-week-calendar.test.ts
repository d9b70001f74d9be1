import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { zonedToUtc } from '../../shared/time-zone';
import { expectError, expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { screenshot } from './browser';
import { startFreshShops } from './fresh-shops';
import { freshShopsOnOnePage } from './sign-in-here';

const VANCOUVER = 'America/Vancouver';
const iso = (date: string, time: string, zone: string) =>
  zonedToUtc(date, time, zone)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');

/** The header of the day column an element sits in, on the team schedule's grid. */
async function columnHeader(page: Page, element: ReturnType<Page['locator']>) {
  const { x } = (await element.boundingBox())!;
  for (const head of await page.locator('.schedule-head').all()) {
    const box = (await head.boundingBox())!;
    if (x >= box.x && x < box.x + box.width) return head.textContent();
  }
  return undefined;
}

const week = startFreshShops();
const shopOnPage = freshShopsOnOnePage(week);

/** The defects of issue 13 in the calendar, the job form and the business's settings. */
describe("the owner's week: times, the job form and settings", () => {
  it('shows a Vancouver Friday 00:30 job on Friday at 00:30 on every screen', async () => {
    const { shop, page } = await shopOnPage({
      timezone: VANCOUVER,
      business_name: 'Coast Cleaning',
    });
    const created = expectOk(
      await shop.portal('POST', '/jobs/create', {
        body: {
          customer_email: 'ada@example.com',
          customer_name: 'Ada Lovelace',
          title: 'Early office clean',
          scheduled_start: iso('2026-11-27', '00:30', VANCOUVER),
          scheduled_end: iso('2026-11-27', '02:30', VANCOUVER),
          assignees: ['Sam'],
        },
      }),
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body.scheduled_start).toBe('2026-11-27T07:30:00Z');

    await page.goto(`${week.server.url}/#/team?week=2026-11-23`);
    const event = page.locator('.schedule .event', { hasText: 'Early office clean' });
    await event.waitFor();
    expect(await event.textContent()).toMatch(/12:30/);
    expect(await columnHeader(page, event)).toMatch(/^Fri/);
    await screenshot(page, 'owner-week-team-schedule-vancouver');

    await page.goto(`${week.server.url}/#/jobs?week=2026-11-23`);
    const friday = page.locator('.week-day', { has: page.locator('.week-day-head', { hasText: /Fri/ }) });
    const inWeek = friday.locator('.event', { hasText: 'Early office clean' });
    await inWeek.waitFor();
    expect(await inWeek.textContent()).toMatch(/12:30.*2:30/);
    await screenshot(page, 'owner-week-jobs-week-vancouver');

    await page.goto(`${week.server.url}/#/jobs/${created.body.job_number}`);
    await page
      .getByText(/Nov 27, 2026.*12:30/)
      .first()
      .waitFor();
    await page.getByRole('button', { name: 'Reschedule or edit' }).click();
    expect(await page.getByRole('dialog').getByLabel('Starts').inputValue()).toBe('2026-11-27T00:30');
  });

  it('reschedules by dragging a job to another day, and schedules one from the unscheduled list', async () => {
    const { shop, page } = await shopOnPage({
      timezone: VANCOUVER,
      business_name: 'Coast Cleaning',
    });
    const create = async (body: Record<string, unknown>) => {
      const created = expectOk(
        await shop.portal('POST', '/jobs/create', {
          body: { customer_email: 'ada@example.com', customer_name: 'Ada Lovelace', ...body },
        }),
      );
      expect(created.status, created.text).toBe(201);
      return created.body;
    };
    const windows = await create({
      title: 'Windows, inside and out, all three floors',
      scheduled_start: iso('2026-11-27', '09:00', VANCOUVER),
      scheduled_end: iso('2026-11-27', '11:00', VANCOUVER),
    });
    const oven = await create({ title: 'Oven clean' });

    await page.goto(`${week.server.url}/#/jobs?week=2026-11-23`);
    const event = page.locator('.week .event', { hasText: 'Windows, inside and out, all three floors' });
    await event.getByText('Ada Lovelace').waitFor();
    await event.dragTo(page.locator('.week-day[data-day="2026-11-24"]'));
    await page.locator('.week-day[data-day="2026-11-24"] .event', { hasText: 'Windows' }).waitFor();
    expect(okBody(await shop.portal('GET', `/jobs/${windows.id}`))).toMatchObject({
      scheduled_start: iso('2026-11-24', '09:00', VANCOUVER),
      scheduled_end: iso('2026-11-24', '11:00', VANCOUVER),
    });

    const waiting = page.getByTestId('unscheduled-jobs').locator('.event', { hasText: 'Oven clean' });
    await waiting.dragTo(page.locator('.week-day[data-day="2026-11-25"]'));
    await page.locator('.week-day[data-day="2026-11-25"] .event', { hasText: 'Oven clean' }).waitFor();
    expect(okBody(await shop.portal('GET', `/jobs/${oven.id}`))).toMatchObject({
      status: 'scheduled',
      scheduled_start: iso('2026-11-25', '09:00', VANCOUVER),
    });
    await screenshot(page, 'owner-week-jobs-week-dragged');
  });

  it('shows every refused field of a form at once, in words an owner uses', async () => {
    const { page } = await shopOnPage({ business_name: 'Coast Cleaning' });
    await page.goto(`${week.server.url}/#/jobs?new=1`);
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Customer e-mail').fill('ada@example');
    await dialog.getByLabel('Starts').fill('2026-12-04T10:00');
    await dialog.getByLabel('Ends').fill('2026-12-04T09:00');
    await dialog.getByRole('button', { name: 'Create job' }).click();
    await dialog.locator('.field-error').first().waitFor();
    const errors = await dialog.locator('.field-error').allTextContents();
    expect(errors).toEqual(
      expect.arrayContaining(['Must be an e-mail address such as name@example.com', 'Is required']),
    );
    expect(errors.join(' ')).not.toMatch(/Too small|expected string|scheduled_/);
    await screenshot(page, 'owner-week-job-form-errors');

    await dialog.getByLabel('Customer e-mail').fill('ada@example.com');
    await dialog.getByLabel('Title').fill('Window clean');
    await dialog.getByRole('button', { name: 'Create job' }).click();
    const ends = dialog.locator('.field', { has: page.getByLabel('Ends') }).locator('.field-error');
    await ends.waitFor();
    expect(await ends.textContent()).toBe('Must be after the start');
  });

  it('chooses time zone and currency from lists, and keeps the currency once money is on record', async () => {
    const { shop, page } = await shopOnPage({ business_name: 'Coast Cleaning' });
    const xyz = expectError(await shop.portal('PUT', '/config', { body: { currency: 'XYZ' } }));
    expect([xyz.status, xyz.body.error.param]).toEqual([400, 'currency']);
    const zone = expectError(await shop.portal('PUT', '/config', { body: { timezone: 'Mars/Olympus' } }));
    expect([zone.status, zone.body.error.param]).toEqual([400, 'timezone']);

    await page.goto(`${week.server.url}/#/settings/business`);
    await page.getByLabel('Time zone').selectOption('America/Vancouver');
    await page.getByLabel('Currency').selectOption('USD');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved').waitFor();
    expect(okBody(await shop.portal('GET', '/config'))).toMatchObject({
      timezone: 'America/Vancouver',
      currency: 'USD',
    });

    const invoice = await shop.portal('POST', '/invoices/create', {
      body: {
        customer_email: 'ada@example.com',
        items: [{ description: 'Clean', quantity: 1, unit_price: 90 }],
      },
    });
    expectStatus(invoice, 201);
    await page.getByLabel('Currency').selectOption('CAD');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const refusal = page.locator('.field', { has: page.getByLabel('Currency') }).locator('.field-error');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('Keep USD');
    await screenshot(page, 'owner-week-settings-currency-kept');
    expect(okBody(await shop.portal('GET', '/config')).currency).toBe('USD');
  });
});
