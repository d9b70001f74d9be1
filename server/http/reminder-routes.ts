import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { listOf } from '../../shared/schemas/common';
import { OutboxMessage, ReminderListQuery } from '../../shared/schemas/mail-outbox';
import { ReminderSettings, ReminderSettingsInput } from '../../shared/schemas/reminders';
import type { AppContext } from '../context';
import { getAccount, updateConfig } from '../domain/accounts';
import { listMessages } from '../domain/mail-outbox';
import { commonErrors } from './schemas';

/**
 * The automatic reminders' e-mails (GET /reminders) and settings (GET and PUT /reminders/settings),
 * the same on both interfaces: the portal under its base, v1 under /api/v1. The settings are the
 * account config's `reminders` (the portal's /config carries them too).
 */
export function reminderSettingsRoutes(
  ctx: AppContext,
  options: { params?: z.ZodType<object>; tags: string[] },
): FastifyPluginAsyncZod {
  const params = options.params && { params: options.params };
  return async (app) => {
    app.get(
      '/reminders',
      {
        schema: {
          tags: options.tags,
          summary: 'List the reminders sent or waiting',
          description:
            'The e-mails of the automatic reminders, newest first, keyset-paginated: which reminder (reminder), what it is about (document_id: the invoice, quote or job), its status, and for a cancelled one why (last_error). Filter by status and document_id.',
          ...params,
          querystring: ReminderListQuery,
          response: { 200: listOf(OutboxMessage), ...commonErrors },
        },
      },
      (request) => listMessages(ctx, request.auth.account.id, { ...request.query, kind: 'reminder' }),
    );

    app.get(
      '/reminders/settings',
      {
        schema: {
          tags: options.tags,
          summary: 'Get the automatic reminder settings',
          description:
            "Which reminders are on (overdue invoices, the day before a visit, quote follow-ups), their steps, the hour they go out in the business's time zone, and their templates.",
          ...params,
          response: { 200: ReminderSettings, ...commonErrors },
        },
      },
      async (request) => (await getAccount(ctx.db, request.auth.account.id)).config.reminders,
    );

    app.put(
      '/reminders/settings',
      {
        schema: {
          tags: options.tags,
          summary: 'Change the automatic reminder settings',
          description:
            'Replaces the settings as a whole. A template that uses a placeholder its reminder does not fill is refused (400 validation_failed, with the field in param and the allowed placeholders in the message).',
          ...params,
          body: ReminderSettingsInput,
          response: { 200: ReminderSettings, ...commonErrors },
        },
      },
      async (request) =>
        (await updateConfig(ctx, request.auth.account.id, { reminders: request.body })).config.reminders,
    );
  };
}
