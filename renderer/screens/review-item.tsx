import type { Review } from '../../shared/schemas/review';
import { useFormat } from '../lib/session';
import { Stars } from './common';

/** One review in a list: stars, who gave it (where that is not the page's subject), when, and what was said. */
export function ReviewItem({
  review,
  customerName,
}: {
  review: Pick<Review, 'rating' | 'comment' | 'source' | 'received_at'>;
  customerName?: string;
}) {
  const format = useFormat();
  return (
    <li>
      <div className="spread">
        <span>
          <Stars rating={review.rating} />
          {customerName !== undefined && (
            <>
              {' '}
              <strong>{customerName}</strong>
            </>
          )}
          {review.source && <span className="cell-sub"> · {review.source}</span>}
        </span>
        <span className="cell-sub">{format.dateTime(review.received_at)}</span>
      </div>
      {review.comment && <p className="quote-text">“{review.comment}”</p>}
    </li>
  );
}
