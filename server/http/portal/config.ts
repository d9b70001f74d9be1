import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Config, ConfigUpdate } from '../../../shared/schemas/config';
import type { AppContext } from '../../context';
import { presentConfig, updateConfig } from '../../domain/accounts';
import { commonErrors, PortalParams } from '../schemas';

const tags = ['settings'];

export function portalConfigRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/config',
      {
        schema: {
          tags,
          summary: 'Get the business settings',
          params: PortalParams,
          response: { 200: Config, ...commonErrors },
        },
      },
      (request) => presentConfig(request.auth.account),
    );

    app.put(
      '/config',
      {
        schema: {
          tags,
          summary: 'Change business settings',
          description:
            'Takes any subset of the fields; an unknown field is refused. The SMTP password is write-only.',
          params: PortalParams,
          body: ConfigUpdate,
          response: { 200: Config, ...commonErrors },
        },
      },
      async (request) => presentConfig(await updateConfig(ctx, request.auth.account.id, request.body)),
    );
  };
}
