import { describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../renderer/lib/format';
import type { Booking } from '../../shared/schemas/booking';
import type { Job } from '../../shared/schemas/job';
import type { TeamMember } from '../../shared/schemas/team';
import type { Timesheet } from '../../shared/schemas/time-entry';
import type { ListPage } from '../helpers/server';
import { screenshot } from './browser';
import { portalOk, type UiContext } from './context';

/** A day after today in the account's zone (America/Toronto), as datetime-local values. */
function slot(days: number, from: string, to: string) {
  const day = addDays(todayIn('America/Toronto'), days);
  return { start: `${day}T${from}`, end: `${day}T${to}` };
}

/** Bookings, jobs and the team, from the screens an owner uses for them. */
export function schedulingFlows(ui: UiContext) {
  describe('bookings, jobs and the team', () => {
    it('creates a booking, confirms it with a job, and the job shows in the jobs list', async () => {
      const { page, server } = ui;
      await page.goto(`${server.url}/#/bookings`);
      await page.getByRole('button', { name: 'New booking' }).click();
      const dialog = page.getByRole('dialog');
      const when = slot(2, '10:00', '12:30');
      await dialog.getByLabel('Customer e-mail').fill('nina@example.com');
      await dialog.getByLabel('Customer name').fill('Nina Park');
      await dialog.getByLabel('Service').fill('Oven and fridge clean');
      await dialog.getByLabel('Starts').fill(when.end);
      await dialog.getByLabel('Ends').fill(when.start);
      await dialog.getByRole('button', { name: 'Add booking' }).click();
      const ends = dialog.getByLabel('Ends');
      await dialog.locator('.field-error').waitFor();
      expect(await ends.getAttribute('aria-invalid')).toBe('true');

      await dialog.getByLabel('Starts').fill(when.start);
      await ends.fill(when.end);
      await dialog.getByRole('button', { name: 'Add booking' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const row = page.getByRole('row', { name: /Oven and fridge clean/ });
      await row.waitFor();
      await screenshot(page, 'bookings');

      await row.getByRole('button', { name: /^Confirm/ }).click();
      const confirm = page.getByRole('dialog');
      expect(await confirm.getByLabel('Create a job on the calendar for it').isChecked()).toBe(true);
      await confirm.getByRole('button', { name: 'Sam', exact: true }).click();
      await confirm.getByLabel('Someone new').fill('Riley');
      await confirm.getByRole('button', { name: 'Add', exact: true }).click();
      expect(await confirm.getByRole('button', { name: 'Riley (new)' }).getAttribute('aria-pressed')).toBe(
        'true',
      );
      await screenshot(page, 'booking-confirm');
      await confirm.getByRole('button', { name: 'Confirm booking' }).click();
      await confirm.waitFor({ state: 'hidden' });
      await row.waitFor({ state: 'detached' });

      const bookings = await portalOk<ListPage<Booking>>(ui, 'GET', '/bookings?status=confirmed');
      const booking = bookings.data.find((b) => b.service === 'Oven and fridge clean')!;
      expect(booking.job_id).toMatch(/^job_/);
      const job = await portalOk<Job>(ui, 'GET', `/jobs/${booking.job_id}`);
      expect(job.status).toBe('scheduled');
      expect([...job.assignees].sort()).toEqual(['Riley', 'Sam']);

      await page.goto(`${server.url}/#/jobs`);
      await page.getByRole('button', { name: 'List' }).click();
      const listed = page.getByRole('row', { name: new RegExp(job.job_number) });
      await listed.getByText('Oven and fridge clean').waitFor();
      expect(await listed.textContent()).toContain(job.assignees.join(', '));
    });

    it('reschedules a job and marks it complete from its page', async () => {
      const { page, server } = ui;
      const jobs = await portalOk<ListPage<Job>>(ui, 'GET', '/jobs?status=scheduled&assignee=Riley');
      const job = jobs.data[0]!;
      await page.goto(`${server.url}/#/jobs/${job.job_number}`);
      await page.getByRole('button', { name: 'Reschedule or edit' }).click();
      const dialog = page.getByRole('dialog');
      const when = slot(3, '08:00', '09:45');
      await dialog.getByLabel('Title').fill('Oven, fridge and freezer clean');
      await dialog.getByLabel('Starts').fill(when.start);
      await dialog.getByLabel('Ends').fill(when.end);
      await dialog.getByRole('button', { name: 'Sam', exact: true }).click();
      expect(
        await dialog.getByRole('button', { name: 'Riley', exact: true }).getAttribute('aria-pressed'),
      ).toBe('true');
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByRole('heading', { name: /Oven, fridge and freezer clean/ }).waitFor();
      const moved = await portalOk<Job>(ui, 'GET', `/jobs/${job.job_number}`);
      expect(moved.assignees).toEqual(['Riley']);
      expect(moved.scheduled_start! > job.scheduled_start!).toBe(true);
      await screenshot(page, 'job-detail');

      await page.getByRole('button', { name: 'Mark complete' }).click();
      await page.locator('.badge', { hasText: 'Completed' }).waitFor();
      expect((await portalOk<Job>(ui, 'GET', `/jobs/${job.job_number}`)).status).toBe('completed');
      await page.getByRole('link', { name: 'Invoice this job' }).waitFor();
    });

    it('cancels a pending booking', async () => {
      const { page, server } = ui;
      const when = slot(4, '14:00', '15:00');
      const booking = await portalOk<Booking>(ui, 'POST', '/bookings', {
        customer_email: 'maya@example.com',
        service: 'Window touch-up',
        start: new Date(`${when.start}:00-05:00`).toISOString(),
        end: new Date(`${when.end}:00-05:00`).toISOString(),
      });
      await page.goto(`${server.url}/#/bookings`);
      const row = page.getByRole('row', { name: /Window touch-up/ });
      await row.getByRole('button', { name: /^Cancel/ }).click();
      await row.waitFor({ state: 'detached' });
      expect((await portalOk<Booking>(ui, 'GET', `/bookings/${booking.id}`)).status).toBe('cancelled');
    });

    it('adds, renames, deactivates and removes team members, handing open jobs to a teammate', async () => {
      const { page, server } = ui;
      await page.goto(`${server.url}/#/team`);
      const form = page.getByRole('form', { name: 'Add a team member' });
      await form.getByLabel('Add someone').fill('Casey');
      await form.getByRole('button', { name: 'Add member' }).click();
      const members = page.getByRole('table', { name: 'Team members' });
      await members.getByRole('row', { name: /Casey/ }).waitFor();

      await page.getByRole('button', { name: 'Remove Casey' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Remove', exact: true }).click();
      await members.getByRole('row', { name: /Casey/ }).waitFor({ state: 'detached' });
      const team = await portalOk<ListPage<TeamMember>>(ui, 'GET', '/team');
      expect(team.data.map((m: { name: string }) => m.name)).not.toContain('Casey');

      const sam = team.data.find((m) => m.name === 'Sam')!;
      expect(sam.open_jobs).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Remove Sam' }).click();
      const dialog = page.getByRole('dialog');
      const remove = dialog.getByRole('button', { name: 'Remove', exact: true });
      expect(await remove.isDisabled()).toBe(true);
      await dialog.getByLabel(/Who takes over Sam's \d+ open jobs?\?/).selectOption({ label: 'Alex' });
      await screenshot(page, 'team-remove-reassign');
      await remove.click();
      await dialog.waitFor({ state: 'hidden' });
      const after = (await portalOk<ListPage<TeamMember>>(ui, 'GET', '/team')).data;
      expect(after.map((m: { name: string }) => m.name)).not.toContain('Sam');
      const alex = after.find((m) => m.name === 'Alex')!;
      expect(alex.open_jobs).toBeGreaterThanOrEqual(sam.open_jobs);

      await page.getByRole('button', { name: 'Edit Alex' }).click();
      const edit = page.getByRole('dialog');
      await edit.getByLabel('Name').fill('Alexandra');
      await edit.getByLabel('E-mail').fill('alexandra@example.com');
      await edit.getByRole('button', { name: 'Save' }).click();
      await members.getByRole('row', { name: /Alexandra/ }).waitFor();

      await page.getByRole('button', { name: 'Invite Alexandra' }).click();
      const invite = page.getByTestId('invite-dialog');
      await invite.getByRole('button', { name: 'Make a link' }).click();
      const link = await invite.getByLabel('Invitation link').inputValue();
      expect(link).toMatch(/\/join\/minv_/);
      await invite.getByRole('img', { name: /QR code/ }).waitFor();
      await screenshot(page, 'team-invite');
      await page.keyboard.press('Escape');
      await invite.waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: 'Deactivate Jordan' }).click();
      await page
        .getByRole('dialog')
        .getByLabel(/Who takes over/)
        .selectOption({ label: 'Alexandra' });
      await page.getByRole('dialog').getByRole('button', { name: 'Deactivate', exact: true }).click();
      await members.getByRole('row', { name: /Jordan.*Inactive/ }).waitFor();
      await screenshot(page, 'team');
    });

    it("clocks a member in and out, adds a day's hours, and offers the payroll CSV", async () => {
      const { page, server } = ui;
      const day = addDays(todayIn('America/Toronto'), -2);
      await page.goto(`${server.url}/#/team?week=${day}`);
      // Someone who joins on the same screen can be clocked in at once.
      const join = page.getByRole('form', { name: 'Add a team member' });
      await join.getByLabel('Add someone').fill('Hana');
      await join.getByRole('button', { name: 'Add member' }).click();
      const clocks = page.getByRole('region', { name: 'Clock in and out' });
      await clocks.getByRole('button', { name: 'Clock Hana in' }).click();
      await clocks.getByRole('button', { name: 'Clock Hana out' }).click();
      await clocks.getByRole('button', { name: 'Clock Hana in' }).waitFor();

      const form = page.getByRole('form', { name: 'Add hours' });
      await form.getByLabel('Person').selectOption({ label: 'Hana' });
      await form.getByLabel('Day').fill(day);
      await form.getByLabel('From').fill('09:00');
      await form.getByLabel('To').fill('08:00');
      await form.getByRole('button', { name: 'Add hours' }).click();
      // 09:00 to 08:00 runs past midnight into the next day: 23 hours, within the 24-hour limit.
      await page.getByRole('row', { name: /Hana.*23\.00/ }).waitFor();
      await form.getByLabel('From').fill('10:00');
      await form.getByLabel('To').fill('12:00');
      await form.getByRole('button', { name: 'Add hours' }).click();
      await form.getByText(/overlap/).waitFor();
      await screenshot(page, 'team-hours');

      const csv = page.getByRole('link', { name: 'Download for payroll (CSV)' });
      expect(await csv.getAttribute('href')).toContain('/timesheet.csv?from=');
      const sheet = await portalOk<Timesheet>(ui, 'GET', `/timesheet?from=${day}&to=${day}`);
      const hana = sheet.people.find((p) => p.member.name === 'Hana');
      expect(hana?.days).toEqual([{ date: day, minutes: 23 * 60 }]);
    });
  });
}
