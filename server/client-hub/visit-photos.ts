import { businessConfig } from './data';
import type { ClientHubRows } from './rows';

export interface VisitPhotoView {
  id: string;
  taken_at: string;
}

/**
 * The crew's photos of one of the customer's completed visits, when the owner shows them on the
 * customer's page (`crew_photos_in_client_hub`, docs/crew.md "The phone"); none otherwise. Another
 * customer's visit, or one not completed yet, has none: the photo's route answers 404 alike.
 */
export async function visitPhotos(
  rows: ClientHubRows,
  accountId: string,
  customerId: string,
  visitId: string,
): Promise<VisitPhotoView[]> {
  const [config, job] = await Promise.all([
    businessConfig(rows, accountId),
    rows.readRow(accountId, 'jobs', visitId),
  ]);
  if (!config?.crew_photos_in_client_hub || !job) return [];
  if (job.row.customer_id !== customerId || job.row.status !== 'completed') return [];
  const photos = await rows.readRows(accountId, 'job_photos', { column: 'job_id', values: [visitId] });
  return photos
    .map((p) => ({ id: String(p.id), taken_at: String(p.created_at) }))
    .sort((a, b) => a.taken_at.localeCompare(b.taken_at) || a.id.localeCompare(b.id));
}

/** One of those photos' bytes, under the same rule. */
export async function visitPhotoImage(
  rows: ClientHubRows,
  accountId: string,
  customerId: string,
  visitId: string,
  photoId: string,
): Promise<{ content_type: string; bytes: Buffer } | undefined> {
  const shown = await visitPhotos(rows, accountId, customerId, visitId);
  if (!shown.some((p) => p.id === photoId)) return undefined;
  const found = await rows.readRow(accountId, 'job_photos', photoId);
  if (!found) return undefined;
  return {
    content_type: String(found.row.content_type),
    bytes: Buffer.from(String(found.row.data), 'base64'),
  };
}
