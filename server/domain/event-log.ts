import { type Event, type EventListQuery, V1_LISTED_EVENT_TYPES } from '../../shared/schemas/event';
import type { AppContext } from '../context';
import { notFound } from '../lib/errors';
import { keysetPage, type Page } from './pagination';

/**
 * The event outbox as a receiver catching up sees it (GET /api/v1/events): the v1 interface's
 * business events, newest first, exactly as their webhook deliveries carry them.
 */
export async function listEvents(
  ctx: AppContext,
  accountId: string,
  query: EventListQuery,
): Promise<Page<Event>> {
  return keysetPage(
    query,
    'evt',
    (beforeId, limit) => {
      let q = ctx.db
        .selectFrom('events')
        .select(['id', 'payload'])
        .where('account_id', '=', accountId)
        .where('type', 'in', query.type ? [query.type] : [...V1_LISTED_EVENT_TYPES]);
      if (beforeId) q = q.where('id', '<', beforeId);
      if (query.created_after) q = q.where('created_at', '>=', query.created_after);
      return q.orderBy('id', 'desc').limit(limit).execute();
    },
    (rows) => rows.map((row) => JSON.parse(row.payload) as Event),
  );
}

export async function getEvent(ctx: AppContext, accountId: string, id: string): Promise<Event> {
  const row = await ctx.db
    .selectFrom('events')
    .select('payload')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('type', 'in', [...V1_LISTED_EVENT_TYPES])
    .executeTakeFirst();
  if (!row) throw notFound(`No event ${id}`);
  return JSON.parse(row.payload) as Event;
}
