import { z } from 'zod';
import { type ReminderKind, unknownPlaceholderMessage, unknownPlaceholders } from '../reminder-templates';
import { text } from './common';

function template(kind: ReminderKind, max: number, multiline: boolean) {
  return text({ multiline })
    .min(1)
    .max(max)
    .superRefine((value, issue) => {
      const unknown = unknownPlaceholders(value, kind);
      if (unknown.length)
        issue.addIssue({ code: 'custom', message: unknownPlaceholderMessage(unknown, kind) });
    });
}

function templates(kind: ReminderKind) {
  return { subject: template(kind, 200, false), body: template(kind, 5000, true) };
}

/**
 * The settings' shape, built twice: stripping for what is stored and answered (a field a newer
 * version added does not make an older one throw its settings away), strict for request bodies,
 * where an unknown field is refused as in every other body.
 */
function reminderSettings(strict: boolean) {
  const object = <T extends z.ZodRawShape>(shape: T) =>
    (strict ? z.strictObject(shape) : z.object(shape)) as z.ZodObject<T>;
  return object({
    send_hour: z
      .number()
      .int()
      .min(0)
      .max(23)
      .meta({ description: "The hour reminders go out, in the business's time zone (9 = 9:00)." }),
    invoice_overdue: object({
      enabled: z.boolean(),
      days_after_due: z
        .array(z.number().int().min(1).max(365))
        .min(1)
        .max(5)
        .refine((days) => days.every((day, i) => i === 0 || day > days[i - 1]!), {
          message: 'must go up, each day once (3, 7, 14)',
        })
        .meta({ description: 'Days after the due date, one reminder each.', example: [3, 7, 14] }),
      ...templates('invoice_overdue'),
    }),
    appointment: object({ enabled: z.boolean(), ...templates('appointment') }).meta({
      description: 'The day before a scheduled visit.',
    }),
    quote_follow_up: object({
      enabled: z.boolean(),
      days_after_sent: z.number().int().min(1).max(90),
      ...templates('quote_follow_up'),
    }),
  });
}

const settingsDescription =
  'Automatic reminders, each switchable, with subject and body templates. A placeholder the reminder does not fill is refused.';

export const ReminderSettings = reminderSettings(false).meta({
  id: 'ReminderSettings',
  description: settingsDescription,
});
/** PUT …/reminders/settings and `reminders` in PUT /config. */
export const ReminderSettingsInput = reminderSettings(true).meta({
  id: 'ReminderSettingsBody',
  description: settingsDescription,
});
export type ReminderSettings = z.infer<typeof ReminderSettings>;

export const TaxRegistration = z.object({
  tax_name: text().min(1).max(40).meta({ example: 'GST' }),
  number: text().min(1).max(40).meta({ example: '123456789 RT0001' }),
});

export const TaxRegistrations = z
  .array(TaxRegistration)
  .max(10)
  .refine((list) => new Set(list.map((r) => r.tax_name.toLowerCase())).size === list.length, {
    message: 'must name each tax once',
  })
  .meta({ description: 'Registration numbers per tax, printed on invoices that charge that tax.' });

export function defaultReminderSettings(): ReminderSettings {
  return {
    send_hour: 9,
    invoice_overdue: {
      enabled: false,
      days_after_due: [3, 7, 14],
      subject: 'Reminder: invoice {invoice_number} is overdue',
      body:
        'Hi {customer_name},\n\nA friendly reminder that invoice {invoice_number} for {amount_due} was due on {due_date}. ' +
        'If you have already paid, thank you, and please ignore this message.\n\n{business_name}',
    },
    appointment: {
      enabled: false,
      subject: 'See you tomorrow: {visit_title}',
      body:
        'Hi {customer_name},\n\nThis is a reminder of your visit on {visit_time}: {visit_title}. ' +
        'If that no longer suits you, just reply to this e-mail.\n\n{business_name}',
    },
    quote_follow_up: {
      enabled: false,
      days_after_sent: 3,
      subject: 'Your quote {quote_number} from {business_name}',
      body:
        'Hi {customer_name},\n\nI wanted to follow up on quote {quote_number} for {quote_total}. ' +
        'It is valid until {valid_until}; reply to accept it or ask us anything.\n\n{business_name}',
    },
  };
}
