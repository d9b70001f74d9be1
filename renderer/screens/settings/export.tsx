import { portalUrl } from '../../lib/api';
import { Card, LinkButton } from '../../ui';

export function ExportSettings() {
  return (
    <Card title="Export your data">
      <p className="muted">
        Everything in this account — customers, jobs, bookings, quotes, invoices with their payments, reviews
        and settings — in one download. It is yours: keep it as a backup or take it elsewhere.
      </p>
      <div className="row">
        <LinkButton variant="primary" href={portalUrl('/export', { format: 'json' })} download>
          Download JSON
        </LinkButton>
        <LinkButton href={portalUrl('/export', { format: 'csv' })} download>
          Download CSV (zip)
        </LinkButton>
      </div>
    </Card>
  );
}
