import type { ClientHubRows, Row } from './rows';

/** How far ahead the phone's list reaches: today and the six days after. */
const WEEK_MS = 7 * 86_400_000;
/** Yesterday's unfinished visits stay on the list, so a visit that ran late can still be completed. */
const BEHIND_MS = 86_400_000;

export interface CrewVisit {
  id: string;
  number: string;
  title: string;
  status: string;
  scheduled_start: string;
  scheduled_end: string | null;
  customer: { name: string; phone: string | null };
  address: string | null;
  access_notes: string | null;
  /** The job's notes, one checklist item a line. */
  checklist: string[];
  /** null unless the member may see prices. */
  price_cents: number | null;
}

export interface CrewWeek {
  member: { name: string; can_see_prices: boolean };
  currency: string;
  timezone: string;
  visits: CrewVisit[];
}

const str = (value: unknown) => (value == null ? null : String(value));

/**
 * The member's own visits from now back a day to a week ahead (docs/crew.md, "The phone"), read
 * through the row port so the hosted hub answers while every owner computer is off. Only visits
 * assigned to this member; prices only if they may see them.
 */
export async function crewWeek(
  rows: ClientHubRows,
  accountId: string,
  member: { memberId: string; canSeePrices: boolean },
  now: Date,
): Promise<CrewWeek> {
  const [self, account] = await Promise.all([
    rows.readRow(accountId, 'team_members', member.memberId),
    rows.readRow(accountId, 'accounts', accountId),
  ]);
  const config = JSON.parse(String(account?.row.config ?? '{}')) as { currency?: string; timezone?: string };
  const assigned = await rows.readRows(accountId, 'job_assignees', {
    column: 'member_id',
    values: [member.memberId],
  });
  const from = now.getTime() - BEHIND_MS;
  const jobs = (
    await rows.readRows(accountId, 'jobs', { column: 'id', values: assigned.map((a) => String(a.job_id)) })
  ).filter((j) => {
    if (j.scheduled_start == null || j.status === 'cancelled') return false;
    const start = Date.parse(String(j.scheduled_start));
    return start < now.getTime() + WEEK_MS && (start >= from || j.status === 'in_progress');
  });
  const done = await doneOnPhones(rows, accountId, jobs);
  const unique = (values: unknown[]) => [...new Set(values.filter((v) => v != null).map(String))];
  const [customers, places] = await Promise.all([
    rows.readRows(accountId, 'customers', { column: 'id', values: unique(jobs.map((j) => j.customer_id)) }),
    rows.readRows(accountId, 'properties', { column: 'id', values: unique(jobs.map((j) => j.property_id)) }),
  ]);
  const byId = (list: Row[]) => new Map(list.map((r) => [String(r.id), r]));
  const customerOf = byId(customers);
  const placeOf = byId(places);
  const visits = jobs.map((j): CrewVisit => {
    const customer = customerOf.get(String(j.customer_id));
    const place = j.property_id ? placeOf.get(String(j.property_id)) : undefined;
    return {
      id: String(j.id),
      number: String(j.number),
      title: String(j.title),
      status: done.get(String(j.id)) ?? String(j.status),
      scheduled_start: String(j.scheduled_start),
      scheduled_end: str(j.scheduled_end),
      customer: { name: String(customer?.name ?? ''), phone: str(customer?.phone) },
      address: str(j.address) ?? (place ? placeAddress(place) : null),
      access_notes: str(place?.access_notes),
      checklist: String(j.notes ?? '')
        .split('\n')
        .map((line) => line.replace(/^\s*(?:[-*]|\[[ x]?\])\s*/, '').trim())
        .filter(Boolean),
      price_cents: member.canSeePrices && j.price_cents != null ? Number(j.price_cents) : null,
    };
  });
  visits.sort((a, b) => a.scheduled_start.localeCompare(b.scheduled_start) || a.id.localeCompare(b.id));
  return {
    member: { name: String(self?.row.name ?? ''), can_see_prices: member.canSeePrices },
    currency: config.currency ?? 'CAD',
    timezone: config.timezone ?? 'UTC',
    visits,
  };
}

/**
 * What the crew did that no install has applied yet (the owner's computers are off): the visit
 * shows as started or completed from the kept actions, so no one starts or completes it twice.
 */
async function doneOnPhones(
  rows: ClientHubRows,
  accountId: string,
  jobs: Row[],
): Promise<Map<string, string>> {
  const pending = (
    await rows.readRows(accountId, 'crew_actions', {
      column: 'job_id',
      values: jobs.map((j) => String(j.id)),
    })
  ).filter((a) => a.status === 'pending' && (a.kind === 'start' || a.kind === 'complete'));
  const status = new Map(jobs.map((j) => [String(j.id), String(j.status)]));
  for (const action of pending.sort((a, b) => String(a.done_at).localeCompare(String(b.done_at)))) {
    const job = String(action.job_id);
    if (action.kind === 'complete' && status.get(job) !== 'completed') status.set(job, 'completed');
    else if (action.kind === 'start' && status.get(job) === 'scheduled') status.set(job, 'in_progress');
  }
  return status;
}

function placeAddress(p: Row): string {
  const street = p.unit ? `${p.unit}-${p.street}` : String(p.street);
  const region = [p.region, p.postal_code].filter(Boolean).join(' ');
  return [street, p.city, region].filter(Boolean).join(', ');
}
