import { expectStatus } from '../helpers/api-responses';
import type { TestAccount } from '../helpers/server';

/** The plan of service-plans.test.ts, whose other files reuse it as a valid base to vary. */
export const every2ndTuesday = {
  customer_email: 'ada@example.com',
  customer_name: 'Ada Lovelace',
  title: 'Garden care',
  address: '12 Analytical Way',
  frequency: 'weekly',
  interval: 2,
  weekdays: ['TU'],
  start_date: '2026-12-01',
  start_time: '09:00',
  end_time: '11:00',
  until: '2027-06-30',
  price: 80,
  assignees: ['Sam'],
  billing: 'per_period',
  invoice_delivery: 'draft',
};

/** A plan's visits as the portal lists them (`when`: all, upcoming or past). */
export async function planVisits(shop: TestAccount, planId: string, when = 'all') {
  const response = await shop.portal('GET', `/service-plans/${planId}/visits?when=${when}&limit=200`);
  expectStatus(response, 200);
  return response.body.data as Array<Record<string, any>>;
}
