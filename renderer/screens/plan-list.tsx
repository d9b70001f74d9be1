import type { ServicePlan } from '../../shared/schemas/service-plan';
import { portal } from '../lib/api';
import { href } from '../lib/router';
import { useFormat } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { Badge, EmptyState, LinkButton, PageHeader, Table } from '../ui';
import { Loaded } from './common';

/**
 * Service plans (docs/recurring-work.md): recurring visits of a customer. The rule is previewed
 * by the server as it is typed, in words and as the next visits, before anything is saved.
 */

export const BILLING_LABEL: Record<ServicePlan['billing'], string> = {
  none: 'Not billed by the plan',
  per_visit: 'An invoice per visit',
  per_period: 'A monthly invoice',
};

export function Plans() {
  const format = useFormat();
  const plans = useResource(
    () => portal.get('/service-plans', { params: { query: { limit: 100 } } }),
    'plans',
  );
  return (
    <>
      <PageHeader
        title="Service plans"
        subtitle="Recurring visits: each one is a job on the calendar, made weeks ahead."
        actions={
          <LinkButton variant="primary" href="#/plans/new">
            New plan
          </LinkButton>
        }
      />
      <Loaded resource={plans}>
        {(page) =>
          page.data.length === 0 ? (
            <div className="table-wrap">
              <EmptyState title="No service plans yet" icon="↻">
                A plan puts a customer's regular visits on the calendar — every second Tuesday, the last day
                of each month — and can invoice them for you.
              </EmptyState>
            </div>
          ) : (
            <Table
              caption="Service plans"
              rows={page.data}
              rowKey={(p) => p.id}
              rowHref={(p) => href('plans', p.id)}
              columns={[
                {
                  header: 'Plan',
                  cell: (p) => (
                    <a href={href('plans', p.id)}>
                      <strong>{p.title}</strong>
                    </a>
                  ),
                },
                { header: 'Customer', cell: (p) => p.customer.name },
                { header: 'Schedule', cell: (p) => p.summary },
                { header: 'Billing', cell: (p) => BILLING_LABEL[p.billing] },
                {
                  header: 'Next visit',
                  cell: (p) => (p.next_visit ? format.dateTime(p.next_visit) : '—'),
                },
                { header: 'Status', cell: (p) => <PlanStatus plan={p} /> },
              ]}
            />
          )
        }
      </Loaded>
    </>
  );
}

export function PlanStatus({ plan }: { plan: ServicePlan }) {
  return plan.status === 'active' ? <Badge tone="success">Active</Badge> : <Badge>Ended</Badge>;
}
