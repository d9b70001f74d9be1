import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { createKey } from '../../server/domain/api-keys';
import { okBody } from '../helpers/api-responses';
import { screenshot } from './browser';
import type { UiContext } from './context';
import { signInHere } from './sign-in-here';

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

const BUILDINGS = [
  ['Building A', '100 Harbour St', 'Gate code 4411'],
  ['Building B', '102 Harbour St', 'Key safe 9090'],
  ['Building C', '104 Harbour St', 'Gate code 7788, dog in unit 3'],
] as const;

/**
 * Issue 20, done means: the same week at desktop and phone size adds Hank without e-mail, books a
 * strata council's three buildings as three places with gate codes, and sees every visit of a
 * service plan with its address in the week view, the team schedule and the calendar feed.
 */
export function placeFlows(ui: UiContext) {
  describe('places, the same week at both sizes', () => {
    for (const size of SIZES) {
      it(`at ${size.name} size (${size.viewport.width}×${size.viewport.height})`, async () => {
        // The desktop run uses the session's business; the phone run, after it, a business of its
        // own, to which it signs the same page in.
        const shop =
          size.name === 'desktop' ? ui.shop : await ui.server.createAccount({ business: 'Coast Cleaning' });
        const { page } = ui;
        if (shop !== ui.shop) await signInHere(page, ui.server, shop.clientId);
        await page.setViewportSize(size.viewport);
        const shot = (name: string) => screenshot(page, `places-${name}-${size.name}`);

        // Hank: a phone and an address, no e-mail; his address becomes his first place.
        await page.goto(`${ui.server.url}/#/customers`);
        await page.getByRole('button', { name: 'New customer' }).first().click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel('Name').fill('Hank Miller');
        await dialog.getByLabel('Phone').fill('604 555 0199');
        await dialog.getByLabel('Address').fill('1200 Strata Way, Vancouver');
        await dialog.getByRole('button', { name: 'Add customer' }).click();
        await page.getByRole('heading', { name: 'Hank Miller' }).waitFor();
        await page
          .getByRole('list', { name: 'Places' })
          .getByText('1200 Strata Way, Vancouver')
          .first()
          .waitFor();
        await shot('hank');

        // The council's three buildings, each with what the crew needs to get in. The council itself
        // comes from the API: the customer form was Hank's step just above.
        const council = okBody(
          await shop.portal('POST', '/customers', {
            body: { name: 'Harbour Strata Council', phone: '604 555 0123' },
          }),
        );
        await page.goto(`${ui.server.url}/#/customers/${council.id}`);
        await page.getByRole('heading', { name: 'Harbour Strata Council' }).waitFor();
        const places = page.getByRole('list', { name: 'Places' });
        for (const [label, street, access] of BUILDINGS) {
          await page.getByRole('button', { name: 'Add place' }).click();
          const placeForm = page.getByRole('form', { name: 'Place' });
          await placeForm.getByLabel('Label').fill(label);
          await placeForm.getByLabel('Street').fill(street);
          await placeForm.getByLabel('City').fill('Vancouver');
          await placeForm.getByLabel('Access notes').fill(access);
          await placeForm.getByRole('button', { name: 'Add place' }).click();
          await places.getByText(label).waitFor();
        }
        expect(await places.locator('li').count()).toBe(3);
        await places.locator('li', { hasText: 'Building A' }).getByText('Default').waitFor();
        await shot('council');

        // A plan for Building B: its place picked on the form, every weekday of the week.
        await page.goto(`${ui.server.url}/#/plans/new`);
        const form = page.getByRole('form', { name: 'Service plan' });
        await form.getByLabel('Find a customer').fill('Harbour');
        await form.getByRole('button', { name: /Harbour Strata Council/ }).click();
        const picker = form.getByLabel('Place', { exact: true });
        await expect
          .poll(async () => (await picker.locator('option:checked').textContent()) ?? '')
          .toContain('Building A');
        const optionB = await picker.locator('option', { hasText: 'Building B' }).getAttribute('value');
        await picker.selectOption(optionB!);
        await form.getByText('Crew: Key safe 9090').waitFor();
        await form.getByLabel('Title').fill('Lobby and stairs');
        for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'])
          await form.getByLabel(day, { exact: true }).check();
        await form.getByLabel('From').fill('08:00');
        await form.getByLabel('To', { exact: true }).fill('09:00');
        await form.getByLabel('Weeks of visits ahead').fill('2');
        await shot('plan-form');
        await form.getByRole('button', { name: 'Create plan' }).click();
        await page.getByRole('heading', { name: /Lobby and stairs/ }).waitFor();
        const address = '102 Harbour St, Vancouver';
        await page.getByRole('table', { name: 'Visits' }).first().getByText(address).first().waitFor();
        await shot('plan-visits');

        const plan = okBody(await shop.portal('GET', '/service-plans')).data.find(
          (p: { title: string }) => p.title === 'Lobby and stairs',
        );
        expect(plan).toMatchObject({ property_id: optionB, address });
        const visits = okBody(
          await shop.portal('GET', `/service-plans/${plan!.id}/visits?when=all&limit=100`),
        ).data as Array<{ scheduled_start: string; address: string; job_number: string }>;
        expect(visits.length).toBeGreaterThan(7);
        for (const visit of visits) expect(visit.address).toBe(address);
        const week = visits[0]!.scheduled_start.slice(0, 10);

        // The week view: every visit of that week, with its address.
        await page.goto(`${ui.server.url}/#/jobs?week=${week}`);
        const events = page.locator('.week-items .event', { hasText: 'Lobby and stairs' });
        await events.first().waitFor();
        const shown = await events.count();
        expect(shown).toBeGreaterThan(0);
        expect(await page.locator('.week-items .event-place', { hasText: address }).count()).toBe(shown);
        await shot('week');

        // The team schedule: the same visits, with the gate code the crew needs.
        await page.goto(`${ui.server.url}/#/team?week=${week}`);
        const scheduled = page.locator('.schedule-cell .event', { hasText: 'Lobby and stairs' });
        await scheduled.first().waitFor();
        expect(await scheduled.count()).toBe(shown);
        expect(await page.locator('.schedule-cell .event-place', { hasText: address }).count()).toBe(shown);
        expect(await page.locator('.schedule-cell .event-access', { hasText: 'Key safe 9090' }).count()).toBe(
          shown,
        );
        await shot('team-schedule');

        // The calendar feed: every visit has its LOCATION.
        const token = (await createKey(ui.server.ctx, shop.clientId, { kind: 'feed' })).key;
        const feed = await shop.portal('GET', `/calendar.ics?token=${token}`, { key: null });
        const planEvents = new ICAL.Component(ICAL.parse(feed.text))
          .getAllSubcomponents('vevent')
          .map((vevent) => new ICAL.Event(vevent))
          .filter((event) => event.summary.startsWith('Lobby and stairs'));
        expect(planEvents).toHaveLength(visits.length);
        for (const event of planEvents) expect(event.location).toBe(address);
      });
    }
  });
}
