import { LOGO_TYPES, type Logo, MAX_LOGO_BYTES } from '../../shared/schemas/business-logo';
import type { AppContext } from '../context';
import type { Queryable } from '../db/database';
import type { BusinessLogosTable } from '../db/schema-requests';
import { isoNow } from '../lib/clock';
import { notFound, payloadTooLarge, validationError } from '../lib/errors';
import { IMAGE_SIGNATURES } from './booking-photos';

/**
 * The business's logo (Settings › Business): shown on the client hub's pages, the public booking
 * page and every quote and invoice PDF. One synced row per business (migration 0030).
 */

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const kilobytes = (bytes: number) => `${Math.ceil(bytes / 1024)} KB`;
const tooLarge = (bytes: number) =>
  payloadTooLarge(`The logo is ${kilobytes(bytes)}; a logo may be at most ${kilobytes(MAX_LOGO_BYTES)}.`);

/** The image's type, read from its bytes: a PNG or a JPEG, whatever the file was called. */
export function checkLogo(base64: string): { content_type: Logo['content_type']; bytes: Buffer } {
  const data = base64.replace(/\s/g, '');
  if (!BASE64.test(data)) throw validationError('The logo is not base64-encoded.', 'data');
  // Refused by its encoded length first, so an enormous upload is never decoded.
  if (Math.floor((data.length * 3) / 4) > MAX_LOGO_BYTES + 2) throw tooLarge((data.length * 3) / 4);
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length > MAX_LOGO_BYTES) throw tooLarge(bytes.length);
  const type = LOGO_TYPES.find((t) => IMAGE_SIGNATURES[t](bytes));
  if (!type) throw validationError('The logo must be a PNG or a JPEG image.', 'data');
  return { content_type: type, bytes };
}

function present(row: Pick<BusinessLogosTable, 'content_type' | 'size_bytes' | 'updated_at'>): Logo {
  return { content_type: row.content_type, size_bytes: row.size_bytes, updated_at: row.updated_at };
}

export async function setLogo(ctx: AppContext, accountId: string, base64: string): Promise<Logo> {
  const { content_type, bytes } = checkLogo(base64);
  const row: BusinessLogosTable = {
    id: accountId,
    account_id: accountId,
    content_type,
    size_bytes: bytes.length,
    data: bytes.toString('base64'),
    updated_at: isoNow(ctx.clock),
  };
  await ctx.db
    .insertInto('business_logos')
    .values(row)
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({
        content_type: row.content_type,
        size_bytes: row.size_bytes,
        data: row.data,
        updated_at: row.updated_at,
      }),
    )
    .execute();
  return present(row);
}

/** The logo with its bytes, or null when the business has none. */
export async function readLogo(
  db: Queryable,
  accountId: string,
): Promise<{ content_type: Logo['content_type']; bytes: Buffer } | null> {
  const row = await db
    .selectFrom('business_logos')
    .select(['content_type', 'data'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  return row ? { content_type: row.content_type, bytes: Buffer.from(row.data, 'base64') } : null;
}

export async function getLogo(ctx: AppContext, accountId: string): Promise<Logo> {
  const row = await ctx.db
    .selectFrom('business_logos')
    .select(['content_type', 'size_bytes', 'updated_at'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (!row) throw notFound('The business has no logo.');
  return present(row);
}

export async function getLogoImage(ctx: AppContext, accountId: string) {
  const logo = await readLogo(ctx.db, accountId);
  if (!logo) throw notFound('The business has no logo.');
  return logo;
}

/** Removing a logo the business does not have changes nothing. */
export async function deleteLogo(ctx: AppContext, accountId: string): Promise<void> {
  await ctx.db.deleteFrom('business_logos').where('id', '=', accountId).execute();
}
