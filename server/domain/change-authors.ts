import type { HistoryAuthorKind } from '../../shared/schemas/history';
import type { Queryable } from '../db/database';

/**
 * How a record's history names who made a change (docs/crew-design.md, "Who made each change"):
 * the actor the triggers or the sync applier wrote (server/lib/actor.ts), in words. Entries from
 * before actors hold the install's host name, or `sync` for a pulled change: they show as they are.
 */
export interface ChangeAuthor {
  kind: HistoryAuthorKind;
  name: string;
}

/** Names every author of `authors` in two reads (members, keys), whatever their number. */
export async function nameAuthors(
  db: Queryable,
  accountId: string,
  authors: string[],
): Promise<(author: string) => ChangeAuthor> {
  const ids = (prefix: string) => [
    ...new Set(authors.filter((a) => a.startsWith(prefix)).map((a) => a.slice(prefix.length))),
  ];
  const memberIds = ids('member:');
  const keyIds = ids('api_key:');
  const members = new Map(
    memberIds.length === 0
      ? []
      : (
          await db
            .selectFrom('team_members')
            .select(['id', 'name'])
            .where('account_id', '=', accountId)
            .where('id', 'in', memberIds)
            .execute()
        ).map((m) => [m.id, m.name]),
  );
  // Keys stay on the install that made them: another install's key is known by its kind only.
  const keys = new Map(
    keyIds.length === 0
      ? []
      : (
          await db
            .selectFrom('api_keys')
            .select(['id', 'name', 'last4'])
            .where('account_id', '=', accountId)
            .where('id', 'in', keyIds)
            .execute()
        ).map((k) => [k.id, k.name ?? `…${k.last4}`]),
  );
  return (author) => {
    const [kind, id = ''] = splitActor(author);
    switch (kind) {
      case 'member':
        return { kind, name: members.get(id) ?? 'A team member' };
      case 'api_key': {
        const name = keys.get(id);
        return { kind, name: name ? `API key ${name}` : 'An API key' };
      }
      case 'client_link':
        return { kind, name: 'Customer via the client hub' };
      case 'owner':
        return { kind, name: 'The owner' };
      case 'system':
        return { kind, name: 'Shopdesk' };
      case 'sync':
        return { kind, name: 'Sync' };
      default:
        return { kind: 'other', name: author };
    }
  };
}

function splitActor(author: string): [string, string?] {
  const colon = author.indexOf(':');
  return colon < 0 ? [author] : [author.slice(0, colon), author.slice(colon + 1)];
}
