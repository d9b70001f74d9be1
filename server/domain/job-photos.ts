import type { JobPhoto } from '../../shared/schemas/crew';
import type { AppContext } from '../context';
import { notFound } from '../lib/errors';
import { getJobFor } from './jobs';

/**
 * The crew's photos of a job (docs/crew.md, "The phone"), for the owner's job page. `assignedTo`
 * scopes a crew member to their own visits: another's job is a 404, as the job itself is.
 */
export async function listJobPhotos(
  ctx: AppContext,
  accountId: string,
  idOrNumber: string,
  assignedTo: string | null,
): Promise<JobPhoto[]> {
  const job = await getJobFor(ctx, accountId, idOrNumber, assignedTo);
  const rows = await ctx.db
    .selectFrom('job_photos')
    .leftJoin('team_members', 'team_members.id', 'job_photos.member_id')
    .select([
      'job_photos.id',
      'job_photos.job_id',
      'job_photos.created_at',
      'job_photos.member_id',
      'team_members.name as member_name',
      'job_photos.size_bytes',
      'job_photos.content_type',
    ])
    .where('job_photos.account_id', '=', accountId)
    .where('job_photos.job_id', '=', job.id)
    .orderBy('job_photos.created_at')
    .orderBy('job_photos.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    job_id: row.job_id,
    taken_at: row.created_at,
    member: row.member_id && row.member_name ? { id: row.member_id, name: row.member_name } : null,
    size_bytes: row.size_bytes,
    content_type: row.content_type,
  }));
}

/** One photo's bytes, under the same scope as the list. */
export async function getJobPhotoImage(
  ctx: AppContext,
  accountId: string,
  idOrNumber: string,
  photoId: string,
  assignedTo: string | null,
): Promise<{ content_type: string; bytes: Buffer }> {
  const job = await getJobFor(ctx, accountId, idOrNumber, assignedTo);
  const row = await ctx.db
    .selectFrom('job_photos')
    .select(['content_type', 'data'])
    .where('account_id', '=', accountId)
    .where('job_id', '=', job.id)
    .where('id', '=', photoId)
    .executeTakeFirst();
  if (!row) throw notFound(`No photo ${photoId} on job ${idOrNumber}`);
  return { content_type: row.content_type, bytes: Buffer.from(row.data, 'base64') };
}
