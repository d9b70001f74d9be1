import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listOf } from '../../../shared/schemas/common';
import { Job, JobCreate, JobListQuery, JobUpdate } from '../../../shared/schemas/job';
import { Deleted, V1ClientFilter, V1ListFilters, v1CreateBody } from '../../../shared/schemas/v1';
import type { AppContext } from '../../context';
import * as jobs from '../../domain/jobs';
import { commonErrors } from '../schemas';
import { withExample } from './examples';
import { clientFilter, IdParams, v1Tag, withClientReference } from './params';

const tags = v1Tag('jobs');
const JobCreateV1 = v1CreateBody(JobCreate, 'JobCreateV1', { required: true });
const Params = IdParams('job', 'job_01jd3k5x2m9q7r8s6t4v2w0y1z');
const V1JobListQuery = JobListQuery.extend({ ...V1ListFilters.shape, ...V1ClientFilter.shape });

const createExample = {
  customer_email: 'ada@example.com',
  customer_name: 'Ada Lovelace',
  title: 'Deep clean, 3-bedroom house',
  scheduled_start: '2026-11-24T14:00:00Z',
  scheduled_end: '2026-11-24T17:00:00Z',
  assignees: ['Sam'],
  address: '12 Analytical Way, Toronto',
  price: 240,
};

const actions = [
  {
    path: 'start',
    summary: 'Start a job',
    description: 'unscheduled or scheduled → in_progress; sets started_at.',
    run: jobs.startJob,
  },
  {
    path: 'complete',
    summary: 'Mark a job complete',
    description:
      'From any open state → completed; sets completed_at and sends the job.completed webhook. A finished job is 409 invalid_state.',
    run: jobs.completeJob,
  },
  {
    path: 'cancel',
    summary: 'Cancel a job',
    description: 'From any state before completed → cancelled; sets cancelled_at.',
    run: jobs.cancelJob,
  },
] as const;

export function v1JobRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/jobs',
      {
        schema: {
          tags,
          summary: 'List jobs',
          description:
            'Newest first, keyset-paginated. Filter by status, client_id, customer_email, assignee, schedule (from, to) and created_after, created_before, updated_since.',
          querystring: V1JobListQuery,
          response: { 200: listOf(Job), ...commonErrors },
        },
      },
      (request) => jobs.listJobs(ctx, request.auth.account.id, clientFilter(request.query)),
    );

    app.get(
      '/jobs/:id',
      {
        schema: {
          tags,
          summary: 'Get a job',
          description: 'By id (job_…) or job number (J-0001).',
          params: Params,
          response: { 200: Job, ...commonErrors },
        },
      },
      (request) => jobs.getJob(ctx, request.auth.account.id, request.params.id),
    );

    app.post(
      '/jobs',
      {
        schema: {
          tags,
          summary: 'Create a job',
          description:
            'The client is named by e-mail and created if new. With scheduled_start the job is scheduled, else unscheduled; assignees are team member names.',
          body: withExample(JobCreateV1, createExample),
          response: { 201: Job, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await jobs.createJob(
              ctx,
              request.auth.account.id,
              await withClientReference(ctx, request.auth.account.id, request.body),
            ),
          ),
    );

    app.patch(
      '/jobs/:id',
      {
        schema: {
          tags,
          summary: 'Update a job',
          description:
            'Reschedule, reassign, retitle an open job; a null scheduled_start unschedules it. Completed and cancelled jobs are 409 invalid_state.',
          params: Params,
          body: withExample(JobUpdate, {
            scheduled_start: '2026-11-25T14:00:00Z',
            scheduled_end: '2026-11-25T17:00:00Z',
          }),
          response: { 200: Job, ...commonErrors },
        },
      },
      (request) => jobs.updateJob(ctx, request.auth.account.id, request.params.id, request.body),
    );

    app.delete(
      '/jobs/:id',
      {
        schema: {
          tags,
          summary: 'Delete a job',
          description:
            'Only a job that never started and has no quote or invoice; anything with a history is cancelled instead (409 invalid_state).',
          params: Params,
          response: { 200: Deleted, ...commonErrors },
        },
      },
      (request) => jobs.deleteJob(ctx, request.auth.account.id, request.params.id),
    );

    for (const action of actions) {
      app.post(
        `/jobs/:id/${action.path}`,
        {
          schema: {
            tags,
            summary: action.summary,
            description: action.description,
            params: Params,
            response: { 200: Job, ...commonErrors },
          },
        },
        (request) => action.run(ctx, request.auth.account.id, request.params.id),
      );
    }
  };
}
