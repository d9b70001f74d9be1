import { validationError } from '../lib/errors';

export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
}

export interface Page<T> {
  data: T[];
  pagination: { has_more: boolean; next_cursor: string | null };
}

/** Cursors are opaque to clients: base64url of the last id on the page. */
export function encodeCursor(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string, idPrefix: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!id.startsWith(`${idPrefix}_`) || !/^[a-z]+_[0-9a-z]{26}$/.test(id)) {
    throw validationError('cursor is not a cursor this list returned', 'cursor');
  }
  return id;
}

/**
 * Keyset pagination, newest first: `fetch` returns up to `limit` rows with id below `beforeId`
 * (ids are time-sortable), so a deep page costs what the first page costs and rows inserted
 * while a client pages never shift the pages it has not read yet.
 */
export async function keysetPage<Row extends { id: string }, T>(
  page: PageRequest,
  idPrefix: string,
  fetch: (beforeId: string | undefined, limit: number) => Promise<Row[]>,
  present: (rows: Row[]) => Promise<T[]> | T[],
): Promise<Page<T>> {
  const beforeId = page.cursor ? decodeCursor(page.cursor, idPrefix) : undefined;
  const rows = await fetch(beforeId, page.limit + 1);
  const hasMore = rows.length > page.limit;
  const pageRows = hasMore ? rows.slice(0, page.limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return {
    data: await present(pageRows),
    pagination: { has_more: hasMore, next_cursor: hasMore && last ? encodeCursor(last.id) : null },
  };
}
