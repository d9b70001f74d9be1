import { describe, expect, it } from 'vitest';
import { requestBooking } from '../../server/domain/booking-requests';
import { newId } from '../../server/lib/ids';
import type { BookingPageSettings } from '../../shared/schemas/booking-page';
import type { BookingRequest } from '../../shared/schemas/booking-request';
import type { Config } from '../../shared/schemas/config';
import type { Customer } from '../../shared/schemas/customer';
import type { Job } from '../../shared/schemas/job';
import type { Quote } from '../../shared/schemas/quote';
import { addDays, dateInZone, isoWeekday } from '../../shared/time-zone';
import type { ListPage } from '../helpers/server';
import { screenshot } from './browser';
import { portalCall, portalOk } from './context';
import { startPortalSession } from './portal-session';

const ui = startPortalSession();
// A real 8×8 teal PNG, so the browser shows it as the owner would see a customer's photo.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGPgL8vDihiGlgQApWE8wfekj3cAAAAASUVORK5CYII=',
  'base64',
);

/** The n-th weekday (Monday to Friday) after today in Toronto, the business's zone. */
function weekdayAhead(n: number): string {
  let day = dateInZone(new Date(), 'America/Toronto');
  for (let found = 0; found < n; ) {
    day = addDays(day, 1);
    if (isoWeekday(day) <= 5) found += 1;
  }
  return day;
}

describe('booking requests, the owner’s side', () => {
  it('sets up the booking page: services, prices, hours and alerts', async () => {
    const { page, server } = ui;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${server.url}/#/settings/booking-page`);
    const form = page.getByRole('form', { name: 'Booking page settings' });
    await form.getByRole('button', { name: 'Weekdays 8:00–17:00' }).click();
    await form.getByRole('button', { name: 'Add a service' }).click();
    const first = form.getByRole('group', { name: 'Service 1' });
    await first.getByLabel('Service', { exact: true }).fill('Gutter cleaning');
    await first.getByLabel('Minutes').fill('120');
    await first.getByLabel('Price (CAD)').fill('180');
    await form.getByRole('button', { name: 'Add a service' }).click();
    const second = form.getByRole('group', { name: 'Service 2' });
    await second.getByLabel('Service', { exact: true }).fill('');
    await form.getByLabel('Take booking requests on my public page').check();
    await form.getByLabel(/E-mail me when a customer acts/).check();
    await form.getByRole('button', { name: 'Save booking page' }).click();
    await second.getByText(/is required/i).waitFor();
    await screenshot(page, 'booking-page-settings-error');
    await second.getByLabel('Service', { exact: true }).fill('Window washing');
    await second.getByLabel('Minutes').fill('90');
    await form.getByRole('button', { name: 'Save booking page' }).click();
    await page.getByText('Booking page settings saved').waitFor();

    const saved = await portalOk<BookingPageSettings>(ui, 'GET', '/booking-page');
    expect(saved.enabled).toBe(true);
    expect(saved.services.map((s: any) => [s.name, s.duration_minutes, s.price])).toEqual([
      ['Gutter cleaning', 120, 180],
      ['Window washing', 90, null],
    ]);
    expect(saved.hours).toHaveLength(5);
    expect((await portalOk<Config>(ui, 'GET', '/config')).owner_alerts).toBe(true);
    await screenshot(page, 'booking-page-settings-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'booking-page-settings-phone');
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('confirms, schedules, quotes and declines the requests customers sent', async () => {
    const { page, server, shop } = ui;
    const { services } = await portalOk<BookingPageSettings>(ui, 'GET', '/booking-page');
    const customers = (await portalOk<ListPage<Customer>>(ui, 'GET', '/customers?limit=10')).data;
    const who = (name: string) => customers.find((c) => c.name === name)!.id;
    const ask = (name: string, service: number, day: number, extra: object = {}) =>
      requestBooking(
        server.ctx,
        shop.clientId,
        {
          customer_id: who(name),
          service_id: services[service]!.id,
          preferred: [
            { date: weekdayAhead(day), time: '09:00' },
            { date: weekdayAhead(day + 1), time: '13:00' },
          ],
          ...extra,
        },
        { id: newId('bkg') },
      );
    const gutters = await ask('Maya Chen', 0, 2, {
      notes: 'The back downspout overflows when it rains.',
      photos: [{ content_type: 'image/png', data: PNG.toString('base64') }],
    });
    const windows = await ask('Oliver Grant', 1, 3);
    const declined = await ask('Priya Patel', 1, 4, { notes: 'Skylights too, please.' });
    const quoted = await ask('Lucas Martin', 0, 5);

    await page.goto(`${server.url}/#/`);
    await page.getByText('4 booking requests wait for your answer.').waitFor();
    await page.getByRole('link', { name: 'Open Bookings' }).click();
    const card = page.locator('.booking-requests');
    await card.getByRole('heading', { name: 'Requests waiting (4)' }).waitFor();
    const photo = card.getByRole('img', { name: /Sent with Gutter cleaning, Maya Chen/ });
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(8);
    await screenshot(page, 'booking-requests-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'booking-requests-phone');
    await page.setViewportSize({ width: 1440, height: 900 });

    await card.getByRole('button', { name: 'Confirm: Window washing, Oliver Grant' }).click();
    await page.getByText('Request confirmed: Window washing').waitFor();
    expect((await portalOk<BookingRequest>(ui, 'GET', `/booking-requests/${windows.id}`)).status).toBe(
      'confirmed',
    );

    await card.getByRole('button', { name: 'Schedule a job: Gutter cleaning, Maya Chen' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Sam', exact: true }).click();
    await screenshot(page, 'booking-request-schedule');
    await dialog.getByRole('button', { name: 'Schedule job' }).click();
    await page.getByText('Job scheduled: Gutter cleaning').waitFor();
    const scheduled = await portalOk<BookingRequest>(ui, 'GET', `/booking-requests/${gutters.id}`);
    expect(scheduled.status).toBe('converted_to_job');
    const job = await portalOk<Job>(ui, 'GET', `/jobs/${scheduled.booking.job_id}`);
    expect(job).toMatchObject({
      status: 'scheduled',
      assignees: ['Sam'],
      scheduled_start: gutters.booking.start,
    });

    await card.getByRole('button', { name: 'Decline: Window washing, Priya Patel' }).click();
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await dialog.getByText(/is required/i).waitFor();
    await dialog.getByLabel('Message to Priya Patel').fill('Sorry, we do not clean skylights.');
    await screenshot(page, 'booking-request-decline');
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await page.getByText('Request declined: Window washing').waitFor();
    expect(await portalOk<BookingRequest>(ui, 'GET', `/booking-requests/${declined.id}`)).toMatchObject({
      status: 'declined',
      decline_message: 'Sorry, we do not clean skylights.',
    });

    await card.getByRole('button', { name: 'Make a quote: Gutter cleaning, Lucas Martin' }).click();
    await page.waitForURL(/#\/quotes\//);
    const asQuote = await portalOk<BookingRequest>(ui, 'GET', `/booking-requests/${quoted.id}`);
    expect(asQuote.status).toBe('converted_to_quote');
    expect((await portalCall<Quote>(ui, 'GET', `/quotes/${asQuote.quote_id}`)).body).toMatchObject({
      status: 'draft',
      subtotal: 180,
    });
    await page.goto(`${server.url}/#/bookings`);
    await page.getByRole('heading', { name: 'Bookings', level: 1 }).waitFor();
    await expect.poll(() => page.locator('.booking-requests').count()).toBe(0);
  });
});
