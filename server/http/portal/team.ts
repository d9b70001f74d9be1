import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ScheduleQuery,
  TeamMember,
  TeamMemberCreate,
  TeamMemberRemoval,
  TeamMemberUpdate,
  TeamSchedule,
} from '../../../shared/schemas/team';
import type { AppContext } from '../../context';
import * as team from '../../domain/team';
import { commonErrors, PortalParams } from '../schemas';
import { crewScope } from './permissions';

const tags = ['scheduling'];

export function portalTeamRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/team/schedule',
      {
        schema: {
          tags,
          summary: 'Team schedule',
          description:
            "Each member's jobs by day in the account's time zone, plus the unassigned ones. " +
            'Defaults to this week, Monday to Sunday; at most 62 days.',
          params: PortalParams,
          querystring: ScheduleQuery,
          response: { 200: TeamSchedule, ...commonErrors },
        },
      },
      (request) =>
        team.teamSchedule(ctx, request.auth.account.id, request.query, crewScope(request.auth.member)),
    );

    app.get(
      '/team',
      {
        schema: {
          tags,
          summary: 'List team members',
          description: 'Alphabetical, with their open and completed job counts.',
          params: PortalParams,
          response: { 200: z.object({ data: z.array(TeamMember) }), ...commonErrors },
        },
      },
      async (request) => ({ data: await team.listTeam(ctx, request.auth.account.id) }),
    );

    app.post(
      '/team',
      {
        schema: {
          tags,
          summary: 'Add a team member',
          params: PortalParams,
          body: TeamMemberCreate,
          response: { 201: TeamMember, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await team.addTeamMember(ctx, request.auth.account.id, request.body, request.auth.member)),
    );

    app.delete(
      '/team/:id',
      {
        schema: {
          tags,
          summary: 'Remove a team member',
          description:
            'Open jobs go to reassign_to (409 when they have open jobs and it is missing); finished jobs keep their history.',
          params: PortalParams.extend({ id: z.string() }),
          querystring: TeamMemberRemoval,
          response: {
            200: z.object({ id: z.string(), object: z.literal('team_member'), deleted: z.literal(true) }),
            ...commonErrors,
          },
        },
      },
      (request) =>
        team.removeTeamMember(ctx, request.auth.account.id, request.params.id, request.query.reassign_to),
    );

    app.patch(
      '/team/:id',
      {
        schema: {
          tags,
          summary: 'Rename, deactivate or bring back a team member',
          description:
            'active: false keeps them on finished jobs and out of new ones; their open jobs go to reassign_to (409 without it).',
          params: PortalParams.extend({ id: z.string() }),
          body: TeamMemberUpdate,
          response: { 200: TeamMember, ...commonErrors },
        },
      },
      (request) =>
        team.updateTeamMember(
          ctx,
          request.auth.account.id,
          request.params.id,
          request.body,
          request.auth.member,
        ),
    );
  };
}
