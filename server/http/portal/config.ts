import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Config, ConfigUpdate, SmtpTestRequest, SmtpTestResult } from '../../../shared/schemas/config';
import type { AppContext } from '../../context';
import { presentConfig, updateConfig } from '../../domain/accounts';
import { forbidden } from '../../lib/errors';
import { sendTestMail } from '../../outbound/smtp-test';
import { commonErrors, PortalParams } from '../schemas';
import { checkRole } from './permissions';

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
      async (request) => {
        // Letting webhooks reach the owner's own network is the owner's decision, not an integration's.
        if (request.body.allow_local_webhooks !== undefined && request.auth.via !== 'session') {
          throw forbidden(
            'allow_local_webhooks is changed under Settings > Webhooks in the signed-in portal UI, not with an API key.',
            'allow_local_webhooks',
          );
        }
        // Webhooks are the owner's (admin): so is where they may reach.
        if (request.body.allow_local_webhooks !== undefined)
          checkRole(request.auth.member, 'admin', 'allow_local_webhooks');
        return presentConfig(await updateConfig(ctx, request.auth.account.id, request.body));
      },
    );

    app.post(
      '/config/smtp/test',
      {
        schema: {
          tags,
          summary: 'Send a test e-mail through the saved SMTP settings',
          description:
            "The signed-in owner's alone. Sends at once, outside the outbox, and answers 200 with what the mail server said, whether it took the message (delivered, its 250 reply) or not (its error reply, or why it could not be reached). 409 when e-mail is not set up or there is no sender address.",
          params: PortalParams,
          body: SmtpTestRequest.optional(),
          response: { 200: SmtpTestResult, ...commonErrors },
        },
      },
      (request) => sendTestMail(ctx, request.auth.account.id, request.body?.to),
    );
  };
}
