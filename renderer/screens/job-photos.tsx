import { useState } from 'react';
import { portal, portalUrl } from '../lib/api';
import { useFormat } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { Card, Dialog } from '../ui';
import '../styles/job-photos.css';

type Photo = { id: string; taken_at: string; member: { name: string } | null };

/** The photos the crew took at this visit (docs/crew.md, "The phone"); a thumbnail opens the whole photo. */
export function JobPhotosCard({ jobId }: { jobId: string }) {
  const format = useFormat();
  const photos = useResource(
    () => portal.get('/jobs/{number}/photos', { params: { path: { number: jobId } } }),
    `job-photos:${jobId}`,
  );
  const [shown, setShown] = useState<Photo | null>(null);
  const list = photos.data?.data ?? [];
  if (!list.length) return null;
  const src = (photo: Photo) => portalUrl(`/jobs/${encodeURIComponent(jobId)}/photos/${photo.id}`);
  const caption = (photo: Photo) =>
    `${photo.member ? `${photo.member.name}, ` : ''}${format.dateTime(photo.taken_at)}`;

  return (
    <Card title="Photos from the visit">
      <ul className="job-photos" aria-label="Photos from the visit">
        {list.map((photo) => (
          <li key={photo.id}>
            <button type="button" className="job-photo-thumb" onClick={() => setShown(photo)}>
              <img src={src(photo)} alt={caption(photo)} loading="lazy" />
            </button>
          </li>
        ))}
      </ul>
      <Dialog open={shown !== null} title={shown ? caption(shown) : ''} onClose={() => setShown(null)} wide>
        {shown && <img className="job-photo-full" src={src(shown)} alt={caption(shown)} />}
      </Dialog>
    </Card>
  );
}
