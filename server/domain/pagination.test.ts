import { describe, expect, it } from 'vitest';
import { newId } from '../lib/ids';
import { decodeCursor, encodeCursor, keysetPage } from './pagination';

const rows = Array.from({ length: 10 }, (_, i) => ({ id: newId('cus', 1_790_000_000_000 + i) })).reverse();
const fetchRows = async (beforeId: string | undefined, limit: number) =>
  rows.filter((r) => !beforeId || r.id < beforeId).slice(0, limit);

describe('keysetPage', () => {
  it('walks every row once, newest first, and ends with has_more false', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await keysetPage({ limit: 3, cursor }, 'cus', fetchRows, (r) => r);
      seen.push(...page.data.map((r) => r.id));
      if (!page.pagination.has_more) {
        expect(page.pagination.next_cursor).toBeNull();
        break;
      }
      cursor = page.pagination.next_cursor!;
    }
    expect(seen).toEqual(rows.map((r) => r.id));
  });

  it('refuses a cursor of another resource or garbage with a 400 on param cursor', () => {
    expect(() => decodeCursor(encodeCursor(newId('inv')), 'cus')).toThrow(
      expect.objectContaining({ status: 400 }),
    );
    expect(() => decodeCursor('!!!', 'cus')).toThrow(
      expect.objectContaining({ options: { param: 'cursor' } }),
    );
  });
});
