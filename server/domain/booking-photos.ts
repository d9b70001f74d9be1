import { MAX_PHOTO_BYTES, type PHOTO_TYPES, type PhotoUpload } from '../../shared/schemas/booking-request';
import type { AppContext } from '../context';
import type { Queryable, Tx } from '../db/database';
import { notFound, validationError } from '../lib/errors';
import { derivedId, idTime } from '../lib/ids';

type PhotoType = (typeof PHOTO_TYPES)[number];

/** The first bytes each accepted image format starts with: an image is what it says it is. */
export const IMAGE_SIGNATURES: Record<PhotoType, (b: Buffer) => boolean> = {
  'image/jpeg': (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/webp': (b) =>
    b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const megabytes = (bytes: number) => `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;

export interface CheckedPhoto {
  content_type: PhotoType;
  bytes: Buffer;
}

/** Decodes and checks every photo before anything is written: each within the size limit, each the image it claims. */
export function checkPhotos(photos: PhotoUpload[]): CheckedPhoto[] {
  return photos.map((photo, i) => {
    const param = `photos[${i}]`;
    const data = photo.data.replace(/\s/g, '');
    if (!BASE64.test(data)) throw validationError(`Photo ${i + 1} is not base64-encoded`, param);
    // Refuse by the encoded length first, so an enormous upload is never decoded.
    if (Math.floor((data.length * 3) / 4) > MAX_PHOTO_BYTES + 2) {
      throw validationError(
        `Photo ${i + 1} is too large (about ${megabytes((data.length * 3) / 4)}); each photo may be at most ${megabytes(MAX_PHOTO_BYTES)}`,
        param,
      );
    }
    const bytes = Buffer.from(data, 'base64');
    if (bytes.length > MAX_PHOTO_BYTES) {
      throw validationError(
        `Photo ${i + 1} is too large (${megabytes(bytes.length)}); each photo may be at most ${megabytes(MAX_PHOTO_BYTES)}`,
        param,
      );
    }
    if (!IMAGE_SIGNATURES[photo.content_type](bytes)) {
      throw validationError(
        `Photo ${i + 1} is not a ${photo.content_type.slice(6).toUpperCase()} image`,
        param,
      );
    }
    return { content_type: photo.content_type, bytes };
  });
}

/** Stores a request's photos; their ids derive from the booking's, so applying the request twice writes them once. */
export async function insertPhotos(
  tx: Tx,
  accountId: string,
  bookingId: string,
  photos: CheckedPhoto[],
  now: string,
): Promise<void> {
  const time = idTime(bookingId) ?? Date.parse(now);
  for (const [position, photo] of photos.entries()) {
    await tx
      .insertInto('booking_photos')
      .values({
        id: derivedId('pho', time, `${bookingId}:${position}`),
        account_id: accountId,
        booking_id: bookingId,
        position,
        content_type: photo.content_type,
        size_bytes: photo.bytes.length,
        data: photo.bytes.toString('base64'),
        created_at: now,
      })
      .execute();
  }
}

export async function listPhotos(db: Queryable, bookingIds: string[]) {
  if (bookingIds.length === 0) return [];
  return db
    .selectFrom('booking_photos')
    .select(['id', 'booking_id', 'content_type', 'size_bytes'])
    .where('booking_id', 'in', bookingIds)
    .orderBy('position')
    .execute();
}

/** One photo's bytes, for the owner and the crew. */
export async function getPhoto(
  ctx: AppContext,
  accountId: string,
  bookingId: string,
  photoId: string,
): Promise<{ content_type: string; bytes: Buffer }> {
  const row = await ctx.db
    .selectFrom('booking_photos')
    .select(['content_type', 'data'])
    .where('account_id', '=', accountId)
    .where('booking_id', '=', bookingId)
    .where('id', '=', photoId)
    .executeTakeFirst();
  if (!row) throw notFound(`No photo ${photoId} on booking ${bookingId}`);
  return { content_type: row.content_type, bytes: Buffer.from(row.data, 'base64') };
}
