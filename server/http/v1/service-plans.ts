import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listOf } from '../../../shared/schemas/common';
import { Job } from '../../../shared/schemas/job';
import {
  PlanRuleInput,
  PlanVisitsQuery,
  ServicePlan,
  ServicePlanCreate,
  ServicePlanListQuery,
  ServicePlanPreview,
  ServicePlanUpdate,
} from '../../../shared/schemas/service-plan';
import { Deleted, v1CreateBody } from '../../../shared/schemas/v1';
import type { AppContext } from '../../context';
import * as plans from '../../domain/service-plans';
import { commonErrors } from '../schemas';
import { optionalWithExample, withExample } from './examples';
import { IdParams, v1Tag, withClientReference } from './params';

const tags = v1Tag('service plans');
const Params = IdParams('service plan', 'plan_01jd3k5x2m9q7r8s6t4v2w0y1z');
const ServicePlanCreateV1 = v1CreateBody(ServicePlanCreate, 'ServicePlanCreateV1', { required: true });
const Visits = z.object({ data: z.array(Job) }).meta({ id: 'ServicePlanVisitsV1' });

const createExample = {
  customer_email: 'ada@example.com',
  title: 'Garden care',
  frequency: 'weekly' as const,
  interval: 2,
  weekdays: ['TU' as const],
  start_date: '2026-12-01',
  start_time: '09:00',
  end_time: '11:00',
  until: '2027-06-30',
  price: 80,
  assignees: ['Sam'],
  billing: 'per_period' as const,
  invoice_delivery: 'send' as const,
};

/** Service plans (recurring jobs) in v1 (docs/recurring-work.md); their visits are ordinary /jobs. */
export function v1ServicePlanRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/service-plans',
      {
        schema: {
          tags,
          summary: 'List service plans',
          description: 'Newest first, keyset-paginated. Filter by status or customer_email.',
          querystring: ServicePlanListQuery,
          response: { 200: listOf(ServicePlan), ...commonErrors },
        },
      },
      (request) => plans.listPlans(ctx, request.auth.account.id, request.query),
    );

    app.post(
      '/service-plans',
      {
        schema: {
          tags,
          summary: 'Create a service plan',
          description:
            'An RFC 5545 rule (frequency, interval, weekdays or month_day, until or count) at a wall-clock time in the business time zone. ' +
            'Visits up to horizon_weeks ahead are created at once as scheduled jobs (service_plan_id set); the schedule keeps the horizon filled. ' +
            'billing per_visit invoices each completed visit; per_period invoices each calendar month. Sends service_plan.created.',
          body: withExample(ServicePlanCreateV1, createExample),
          response: { 201: ServicePlan, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await plans.createPlan(
              ctx,
              request.auth.account.id,
              await withClientReference(ctx, request.auth.account.id, request.body),
            ),
          ),
    );

    app.post(
      '/service-plans/preview',
      {
        schema: {
          tags,
          summary: 'Preview a rule',
          description: 'The rule in words and its next visits. Saves nothing.',
          body: withExample(PlanRuleInput, {
            frequency: 'monthly',
            month_day: 31,
            start_date: '2027-01-31',
            start_time: '08:00',
            end_time: '09:30',
          }),
          response: { 200: ServicePlanPreview, ...commonErrors },
        },
      },
      (request) => plans.previewPlan(ctx, request.auth.account.id, request.body),
    );

    app.get(
      '/service-plans/:id',
      {
        schema: {
          tags,
          summary: 'Get a service plan',
          params: Params,
          response: { 200: ServicePlan, ...commonErrors },
        },
      },
      (request) => plans.getPlan(ctx, request.auth.account.id, request.params.id),
    );

    app.patch(
      '/service-plans/:id',
      {
        schema: {
          tags,
          summary: 'Update a service plan',
          description:
            'Changes apply to future visits nobody has touched; past, finished and moved, reassigned or cancelled visits stay. An ended plan is 409 invalid_state.',
          params: Params,
          body: withExample(ServicePlanUpdate, { start_time: '10:00', end_time: '12:00' }),
          response: { 200: ServicePlan, ...commonErrors },
        },
      },
      (request) => plans.updatePlan(ctx, request.auth.account.id, request.params.id, request.body),
    );

    app.delete(
      '/service-plans/:id',
      {
        schema: {
          tags,
          summary: 'Delete a service plan',
          description:
            'Only while every visit is still ahead and untouched (they are deleted with it); otherwise 409 invalid_state: end it instead.',
          params: Params,
          response: { 200: Deleted, ...commonErrors },
        },
      },
      (request) => plans.deletePlan(ctx, request.auth.account.id, request.params.id),
    );

    app.post(
      '/service-plans/:id/end',
      {
        schema: {
          tags,
          summary: 'End a service plan',
          description:
            'Stops the series: future untouched visits are removed, history stays. Sends service_plan.ended.',
          params: Params,
          body: optionalWithExample(z.strictObject({}), {}),
          response: { 200: ServicePlan, ...commonErrors },
        },
      },
      (request) => plans.endPlan(ctx, request.auth.account.id, request.params.id),
    );

    app.get(
      '/service-plans/:id/visits',
      {
        schema: {
          tags,
          summary: "List a service plan's visits",
          description: 'Upcoming (default, start order), past (newest first) or all. Each is a job.',
          params: Params,
          querystring: PlanVisitsQuery,
          response: { 200: Visits, ...commonErrors },
        },
      },
      (request) => plans.listPlanVisits(ctx, request.auth.account.id, request.params.id, request.query),
    );
  };
}
