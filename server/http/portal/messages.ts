import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listOf } from '../../../shared/schemas/common';
import { MessageListQuery, OutboxMessage } from '../../../shared/schemas/mail-outbox';
import type { AppContext } from '../../context';
import * as outbox from '../../domain/mail-outbox';
import { commonErrors, PortalParams } from '../schemas';

const tags = ['messages'];

/** The mail outbox: what was sent, what waits and why; send now, retry or cancel what has not gone out. */
export function portalMessageRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/messages',
      {
        schema: {
          tags,
          summary: 'List outgoing e-mail',
          description:
            "Newest first. Queued messages say why they wait (waiting_reason); failed ones carry the mail server's answer in last_error.",
          params: PortalParams,
          querystring: MessageListQuery,
          response: { 200: listOf(OutboxMessage), ...commonErrors },
        },
      },
      (request) => outbox.listMessages(ctx, request.auth.account.id, request.query),
    );

    const MessageParams = PortalParams.extend({
      id: z.string().min(1).meta({ example: 'msg_01jd3k5x2m9q7r8s6t4v2w0y1z' }),
    });

    app.get(
      '/messages/:id',
      {
        schema: {
          tags,
          summary: 'Get one outgoing e-mail',
          params: MessageParams,
          response: { 200: OutboxMessage, ...commonErrors },
        },
      },
      (request) => outbox.getMessage(ctx, request.auth.account.id, request.params.id),
    );

    app.post(
      '/messages/:id/retry',
      {
        schema: {
          tags,
          summary: 'Retry a failed message',
          params: MessageParams,
          response: { 200: OutboxMessage, ...commonErrors },
        },
      },
      (request) => outbox.retryMessage(ctx, request.auth.account.id, request.params.id),
    );

    app.post(
      '/messages/:id/send',
      {
        schema: {
          tags,
          summary: 'Send a waiting or failed message now',
          description:
            '409 when e-mail is not set up (the message keeps waiting) or the message was sent or cancelled.',
          params: MessageParams,
          response: { 200: OutboxMessage, ...commonErrors },
        },
      },
      (request) => outbox.sendMessageNow(ctx, request.auth.account.id, request.params.id),
    );

    app.post(
      '/messages/:id/cancel',
      {
        schema: {
          tags,
          summary: 'Cancel a message that has not gone out',
          params: MessageParams,
          response: { 200: OutboxMessage, ...commonErrors },
        },
      },
      (request) => outbox.cancelMessage(ctx, request.auth.account.id, request.params.id),
    );
  };
}
