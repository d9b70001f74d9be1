import { useState } from 'react';
import { BarChart } from '../charts/bar-chart';
import { portal } from '../lib/api';
import { useFormat } from '../lib/session';
import { usePagedList, useResource } from '../lib/use-resource';
import { Button, Card, EmptyState, ErrorNotice, PageHeader, Stat, useToast } from '../ui';
import { ListFooter, Loaded, Stars } from './common';
import { ReviewItem } from './review-item';
import { RecordReviewDialog } from './review-record';

export function Reviews() {
  const format = useFormat();
  const toast = useToast();
  const [recording, setRecording] = useState(false);
  const dashboard = useResource(() => portal.get('/reviews/dashboard'), 'reviews-dashboard');
  const velocity = useResource(
    () => portal.get('/reviews/velocity', { params: { query: { weeks: 12 } } }),
    'velocity',
  );
  const list = usePagedList(
    (cursor) => portal.get('/reviews', { params: { query: { cursor, limit: 25 } } }),
    'reviews',
  );
  return (
    <>
      <PageHeader
        title="Reviews"
        subtitle="What your customers say, and how often."
        actions={
          <Button variant="primary" write onClick={() => setRecording(true)}>
            Record a review
          </Button>
        }
      />
      <Loaded resource={dashboard} rows={3}>
        {(d) => (
          <div className="stats">
            <Stat
              label="Average rating"
              value={d.average_rating === null ? '—' : d.average_rating.toFixed(2)}
              detail={d.average_rating !== null && <Stars rating={d.average_rating} />}
            />
            <Stat label="Reviews" value={format.number(d.count)} />
            <Stat
              label="This month"
              value={format.number(d.this_month.count)}
              detail={`Last month: ${d.last_month.count}`}
            />
            <Stat
              label="Need a reply"
              value={format.number(d.needs_response.length)}
              tone={d.needs_response.length ? 'danger' : undefined}
              detail="1–2 stars, last 90 days"
            />
          </div>
        )}
      </Loaded>
      <div className="grid grid-3">
        <Card title="Reviews per week">
          <Loaded resource={velocity} rows={4}>
            {(v) => (
              <>
                <BarChart
                  title="Reviews per week"
                  counts
                  data={v.weeks.map((w) => ({ label: format.shortDay(w.week_start), value: w.count }))}
                />
                <p className="muted">
                  {v.trend.per_week.toFixed(1)} a week,{' '}
                  {v.trend.direction === 'up' ? 'up' : v.trend.direction === 'down' ? 'down' : 'flat'}
                  {v.trend.change !== null && ` ${format.percent(Math.abs(v.trend.change))}`} from{' '}
                  {v.trend.previous_per_week.toFixed(1)} before.
                </p>
              </>
            )}
          </Loaded>
        </Card>
        <Card title="Ratings">
          <Loaded resource={dashboard} rows={5}>
            {(d) => (
              <div className="rating-bars">
                {(['5', '4', '3', '2', '1'] as const).map((stars) => (
                  <div className="rating-bar" key={stars}>
                    <span>{stars} ★</span>
                    <span className="meter">
                      <span style={{ width: `${d.count ? (d.distribution[stars] / d.count) * 100 : 0}%` }} />
                    </span>
                    <span className="num">{d.distribution[stars]}</span>
                  </div>
                ))}
              </div>
            )}
          </Loaded>
        </Card>
      </div>
      <h2 className="section-title">All reviews</h2>
      {list.error && <ErrorNotice error={list.error} onRetry={list.reload} />}
      <Card padded={false}>
        {list.items.length === 0 && !list.loading ? (
          <EmptyState title="No reviews yet" icon="★">
            Reviews come in through the v1 API from Google, your website or a follow-up e-mail, or record one
            a customer gave you in person.
          </EmptyState>
        ) : (
          <ul className="review-list">
            {list.items.map((review) => (
              <ReviewItem
                key={review.id}
                review={review}
                customerName={review.customer?.name ?? 'Anonymous'}
              />
            ))}
          </ul>
        )}
        <ListFooter
          count={list.items.length}
          hasMore={list.hasMore}
          loading={list.loading}
          onMore={list.loadMore}
          noun={['review', 'reviews']}
        />
      </Card>
      <RecordReviewDialog
        open={recording}
        onClose={() => setRecording(false)}
        onRecorded={(review) => {
          setRecording(false);
          toast.show(`${review.rating}-star review recorded`);
          list.reload();
          dashboard.reload();
          velocity.reload();
        }}
      />
    </>
  );
}
