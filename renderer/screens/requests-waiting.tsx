import { portal } from '../lib/api';
import { href } from '../lib/router';
import { useResource } from '../lib/use-resource';
import { Notice } from '../ui';

/** On the dashboard: how many requests wait for an answer, with the way to them. */
export function RequestsWaitingNotice() {
  const open = useResource(
    () => portal.get('/booking-requests', { params: { query: { status: 'open', limit: 100 } } }),
    'booking-requests-open',
  );
  const waiting = open.data?.data.length ?? 0;
  if (waiting === 0) return null;
  const more = open.data?.pagination.has_more ? '+' : '';
  return (
    <Notice>
      {waiting}
      {more} booking {waiting === 1 && !more ? 'request waits' : 'requests wait'} for your answer.{' '}
      <a href={href('bookings')}>Open Bookings</a>
    </Notice>
  );
}
