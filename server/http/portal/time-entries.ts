import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listOf } from '../../../shared/schemas/common';
import {
  ClockIn,
  TimeEntry,
  TimeEntryCreate,
  TimeEntryListQuery,
  TimeEntryUpdate,
  Timesheet,
  TimesheetQuery,
} from '../../../shared/schemas/time-entry';
import type { AppContext } from '../../context';
import * as entries from '../../domain/time-entries';
import { timesheet, timesheetCsv } from '../../domain/timesheet';
import { csvFileResponse, sendCsv } from '../csv-download';
import { commonErrors, PortalParams } from '../schemas';
import { crewScope } from './permissions';

const tags = ['team'];
const Params = PortalParams.extend({
  id: z.string().min(1).meta({ description: "The entry's id (te_…)." }),
});

/** The crew see their own hours only: their member_id replaces any the query names. */
function ownHours<Q extends { member_id?: string | undefined }>(request: FastifyRequest, query: Q): Q {
  const own = crewScope(request.auth.member);
  return own ? { ...query, member_id: own } : query;
}

/**
 * Hours worked and the timesheet: the account's portal key or the signed-in UI, like the rest of
 * the team's routes (the guard refuses other accounts' keys, v1 keys, and writes without the plan).
 */
export function portalTimeEntryRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/time-entries',
      {
        schema: {
          tags,
          summary: 'List hours',
          description:
            'Time entries, newest recorded first, keyset-paginated; filter by member_id, job_id, or open=true for who is clocked in now.',
          params: PortalParams,
          querystring: TimeEntryListQuery,
          response: { 200: listOf(TimeEntry), ...commonErrors },
        },
      },
      (request) => entries.listTimeEntries(ctx, request.auth.account.id, ownHours(request, request.query)),
    );

    app.post(
      '/time-entries',
      {
        schema: {
          tags,
          summary: 'Record hours',
          description:
            "Hours typed on the timesheet: a start and an end, at most 24 hours, not in the future, not overlapping the same person's other hours (409).",
          params: PortalParams,
          body: TimeEntryCreate,
          response: { 201: TimeEntry, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await entries.createTimeEntry(ctx, request.auth.account.id, request.body)),
    );

    app.post(
      '/time-entries/clock-in',
      {
        schema: {
          tags,
          summary: 'Clock a member in',
          description:
            'Starts an open entry now, for a visit (job_id) or the day. 409 while the member is clocked in.',
          params: PortalParams,
          body: ClockIn,
          response: { 201: TimeEntry, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await entries.clockIn(ctx, request.auth.account.id, request.body, crewScope(request.auth.member)),
          ),
    );

    app.post(
      '/time-entries/:id/clock-out',
      {
        schema: {
          tags,
          summary: 'Clock a member out',
          description: 'Ends an open entry now. 409 when it has ended, or began more than 24 hours ago.',
          params: Params,
          response: { 200: TimeEntry, ...commonErrors },
        },
      },
      (request) =>
        entries.clockOut(ctx, request.auth.account.id, request.params.id, crewScope(request.auth.member)),
    );

    app.get(
      '/time-entries/:id',
      {
        schema: {
          tags,
          summary: 'Get an entry',
          params: Params,
          response: { 200: TimeEntry, ...commonErrors },
        },
      },
      (request) =>
        entries.getTimeEntry(ctx, request.auth.account.id, request.params.id, crewScope(request.auth.member)),
    );

    app.patch(
      '/time-entries/:id',
      {
        schema: {
          tags,
          summary: 'Correct an entry',
          description: 'Same rules as recording; an open entry may be given its end here.',
          params: Params,
          body: TimeEntryUpdate,
          response: { 200: TimeEntry, ...commonErrors },
        },
      },
      (request) => entries.updateTimeEntry(ctx, request.auth.account.id, request.params.id, request.body),
    );

    app.delete(
      '/time-entries/:id',
      {
        schema: {
          tags,
          summary: 'Remove an entry',
          params: Params,
          response: {
            200: z.object({ id: z.string(), object: z.literal('time_entry'), deleted: z.literal(true) }),
            ...commonErrors,
          },
        },
      },
      (request) => entries.deleteTimeEntry(ctx, request.auth.account.id, request.params.id),
    );

    app.get(
      '/timesheet',
      {
        schema: {
          tags,
          summary: 'Timesheet',
          description:
            "Hours per person and day in the account's time zone; defaults to this week, at most 62 days. A shift counts on the day it started.",
          params: PortalParams,
          querystring: TimesheetQuery,
          response: { 200: Timesheet, ...commonErrors },
        },
      },
      (request) => timesheet(ctx, request.auth.account.id, ownHours(request, request.query)),
    );

    app.get(
      '/timesheet.csv',
      {
        schema: {
          tags,
          summary: 'Timesheet for payroll (CSV)',
          description:
            'One row per finished entry: Member, Date, Start, End (local times), Hours (decimal, 7.50), Job, Note.',
          params: PortalParams,
          querystring: TimesheetQuery,
          response: {
            200: csvFileResponse,
            ...commonErrors,
          },
        },
      },
      async (request, reply) => {
        const file = await timesheetCsv(ctx, request.auth.account.id, ownHours(request, request.query));
        return sendCsv(reply, file.filename, file.csv);
      },
    );
  };
}
