import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listOf } from '../../../shared/schemas/common';
import { Job } from '../../../shared/schemas/job';
import {
  PlanRuleInput,
  PlanVisitsQuery,
  ServicePlan,
  ServicePlanCreate,
  ServicePlanEnd,
  ServicePlanListQuery,
  ServicePlanPreview,
  ServicePlanUpdate,
} from '../../../shared/schemas/service-plan';
import type { AppContext } from '../../context';
import * as plans from '../../domain/service-plans';
import { commonErrors, PortalParams } from '../schemas';

const IdParams = PortalParams.extend({
  id: z.string().meta({ description: 'The service plan id (plan_…).' }),
});
const tags = ['scheduling'];
const Deleted = z
  .object({ id: z.string(), object: z.literal('service_plan'), deleted: z.literal(true) })
  .meta({ id: 'DeletedServicePlan' });
const Visits = z.object({ data: z.array(Job) }).meta({ id: 'ServicePlanVisits' });

/** Service plans (recurring jobs) under /api/portal/{client_id}/service-plans (docs/recurring-work.md). */
export function portalServicePlanRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/service-plans',
      {
        schema: {
          tags,
          summary: 'List service plans',
          description: 'Newest first. Filter by status or customer.',
          params: PortalParams,
          querystring: ServicePlanListQuery,
          response: { 200: listOf(ServicePlan), ...commonErrors },
        },
      },
      (request) => plans.listPlans(ctx, request.auth.account.id, request.query),
    );

    app.post(
      '/service-plans/preview',
      {
        schema: {
          tags,
          summary: 'Preview a service plan rule',
          description:
            'The rule in words and its next visits, with holidays applied and times in the business time zone. Saves nothing.',
          params: PortalParams,
          body: PlanRuleInput,
          response: { 200: ServicePlanPreview, ...commonErrors },
        },
      },
      (request) => plans.previewPlan(ctx, request.auth.account.id, request.body),
    );

    app.post(
      '/service-plans/create',
      {
        schema: {
          tags,
          summary: 'Create a service plan',
          description:
            'Makes the visits up to horizon_weeks ahead as scheduled jobs at once; the daily schedule keeps the horizon filled. ' +
            'An unknown customer_email creates the customer. Sends service_plan.created.',
          params: PortalParams,
          body: ServicePlanCreate,
          response: { 201: ServicePlan, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await plans.createPlan(ctx, request.auth.account.id, request.body)),
    );

    app.get(
      '/service-plans/:id',
      {
        schema: {
          tags,
          summary: 'Get a service plan',
          params: IdParams,
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
          summary: 'Change a service plan',
          description:
            'Future visits nobody has touched follow the change; past, finished and owner-changed visits stay as they are. An ended plan answers 409. Sends service_plan.updated.',
          params: IdParams,
          body: ServicePlanUpdate,
          response: { 200: ServicePlan, ...commonErrors },
        },
      },
      (request) => plans.updatePlan(ctx, request.auth.account.id, request.params.id, request.body),
    );

    app.post(
      '/service-plans/:id/end',
      {
        schema: {
          tags,
          summary: 'End a service plan',
          description:
            'No more visits are made; future untouched visits are removed, the rest stays. Sends service_plan.ended.',
          params: IdParams,
          body: ServicePlanEnd.optional(),
          response: { 200: ServicePlan, ...commonErrors },
        },
      },
      (request) => plans.endPlan(ctx, request.auth.account.id, request.params.id),
    );

    app.delete(
      '/service-plans/:id',
      {
        schema: {
          tags,
          summary: 'Delete a service plan',
          description:
            'Only a plan whose visits are all still ahead and untouched (they go with it); any other plan is ended instead (409).',
          params: IdParams,
          response: { 200: Deleted, ...commonErrors },
        },
      },
      (request) => plans.deletePlan(ctx, request.auth.account.id, request.params.id),
    );

    app.get(
      '/service-plans/:id/visits',
      {
        schema: {
          tags,
          summary: "A service plan's visits",
          description: 'Upcoming visits in start order (default), or past ones newest first.',
          params: IdParams,
          querystring: PlanVisitsQuery,
          response: { 200: Visits, ...commonErrors },
        },
      },
      (request) => plans.listPlanVisits(ctx, request.auth.account.id, request.params.id, request.query),
    );
  };
}
