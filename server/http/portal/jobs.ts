import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listOf } from '../../../shared/schemas/common';
import { Job, JobCreate, JobListQuery, JobUpdate } from '../../../shared/schemas/job';
import type { AppContext } from '../../context';
import * as jobs from '../../domain/jobs';
import { commonErrors, PortalParams } from '../schemas';
import { crewScope, pricedFor } from './permissions';

const NumberParams = PortalParams.extend({
  number: z.string().meta({ description: 'The job number (J-0001) or its id.' }),
});
const tags = ['scheduling'];

export function portalJobRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/jobs',
      {
        schema: {
          tags,
          summary: 'List jobs',
          description: 'Newest first. Filter by status, scheduled start (from/to), assignee or customer.',
          params: PortalParams,
          querystring: JobListQuery,
          response: { 200: listOf(Job), ...commonErrors },
        },
      },
      async (request) => {
        const { member } = request.auth;
        const page = await jobs.listJobs(ctx, request.auth.account.id, {
          ...request.query,
          assignedTo: crewScope(member),
        });
        return { ...page, data: page.data.map((job) => pricedFor(member, job)) };
      },
    );

    app.post(
      '/jobs/create',
      {
        schema: {
          tags,
          summary: 'Create a job',
          description:
            'An unknown customer_email creates the customer; unknown assignee names join the team. ' +
            'The job is scheduled when scheduled_start is given, else unscheduled.',
          params: PortalParams,
          body: JobCreate,
          response: { 201: Job, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await jobs.createJob(ctx, request.auth.account.id, request.body)),
    );

    app.get(
      '/jobs/:number',
      {
        schema: {
          tags,
          summary: 'Get a job',
          params: NumberParams,
          response: { 200: Job, ...commonErrors },
        },
      },
      async (request) => {
        const { member } = request.auth;
        const job = await jobs.getJobFor(
          ctx,
          request.auth.account.id,
          request.params.number,
          crewScope(member),
        );
        return pricedFor(member, job);
      },
    );

    app.patch(
      '/jobs/:number',
      {
        schema: {
          tags,
          summary: 'Reschedule, reassign or retitle a job',
          description:
            'Not for completed or cancelled jobs (409). A null scheduled_start unschedules the job; assignees replaces the list.',
          params: NumberParams,
          body: JobUpdate,
          response: { 200: Job, ...commonErrors },
        },
      },
      (request) => jobs.updateJob(ctx, request.auth.account.id, request.params.number, request.body),
    );

    const actions = [
      ['start', 'Start a job', 'From unscheduled or scheduled; sets started_at.', jobs.startJob],
      [
        'complete',
        'Mark a job complete',
        'Sets completed_at and sends job.completed. A completed or cancelled job answers 409.',
        jobs.completeJob,
      ],
      ['cancel', 'Cancel a job', 'Any job not yet completed or cancelled.', jobs.cancelJob],
    ] as const;
    for (const [action, summary, description, run] of actions) {
      app.post(
        `/jobs/:number/${action}`,
        {
          schema: {
            tags,
            summary,
            description,
            params: NumberParams,
            response: { 200: Job, ...commonErrors },
          },
        },
        (request) => run(ctx, request.auth.account.id, request.params.number),
      );
    }
  };
}
