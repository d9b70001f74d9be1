import { z } from 'zod';
import { isKnownCurrency } from '../currencies';
import { hasAtMostDecimals, RATE_DECIMALS } from '../money';
import { isKnownTimeZone } from '../zone-database';
import { BookingPageSettings, defaultBookingPage } from './booking-page';
import { Email, text } from './common';
import {
  defaultReminderSettings,
  ReminderSettings,
  ReminderSettingsInput,
  TaxRegistrations,
} from './reminders';

export const TaxRate = z
  .number()
  .min(0)
  .max(1)
  .refine((n) => hasAtMostDecimals(n, RATE_DECIMALS), { message: 'must have at most 6 decimal places' })
  .meta({ description: 'A fraction: 0.05 means 5 percent.', example: 0.05 });

export const TaxDefinition = z.object({
  name: text().min(1).max(40).meta({ example: 'GST' }),
  rate: TaxRate,
});

/** Documents and the calendar feed format dates and amounts in this locale: it must be one they can use. */
function isSupportedLocale(value: string): boolean {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf(value).length > 0;
  } catch {
    return false;
  }
}

export const SmtpSettings = z.object({
  host: text().min(1),
  port: z.number().int().min(1).max(65535),
  secure: z.boolean().default(false),
  user: text().optional(),
  /** Write-only: never returned by GET /config. */
  password: z.string().optional(),
  from: Email.optional(),
});

const configFields = {
  business_name: text().min(1).max(120),
  business_email: Email.nullable(),
  business_phone: text().max(40).nullable(),
  business_address: text().max(300).nullable(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as CAD')
    .refine(isKnownCurrency, { message: 'must be a currency such as CAD' })
    .meta({ example: 'CAD' }),
  locale: z
    .string()
    .min(2)
    .max(35)
    .refine(isSupportedLocale, {
      message: 'must be a BCP 47 locale such as en-CA that dates and numbers can be printed in',
    })
    .meta({ example: 'en-CA' }),
  timezone: z
    .string()
    .refine(isKnownTimeZone, { message: 'must be an IANA time zone such as America/Toronto' }),
  default_due_days: z.number().int().min(0).max(365),
  default_valid_days: z.number().int().min(1).max(365),
  default_taxes: z.array(TaxDefinition).max(5),
  invoice_prefix: text().max(10),
  quote_prefix: text().max(10),
  job_prefix: text().max(10),
  winback_after_days: z.number().int().min(1).max(3650),
  winback_subject: text().min(1).max(200),
  winback_message: text({ multiline: true }).min(1).max(5000),
  smtp: SmtpSettings.nullable(),
  reminders: ReminderSettings,
  tax_registrations: TaxRegistrations,
  client_hub_url: z
    .string()
    .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, 'must be an address such as https://hub.example.com')
    .max(300)
    .nullable()
    .default(null)
    .meta({
      description:
        "Where customers reach this business's client hub (the hosted hub's public address, or this install's HTTPS address): quote e-mails carry a personal link there.",
    }),
  serve_client_hub: z.boolean().default(false).meta({
    description:
      "Whether this install serves the business's client hub pages (/c/…) itself, from its own database: turn it on when client_hub_url is this install's own public HTTPS address.",
  }),
  payment_instructions: text({ multiline: true }).max(2000).nullable().default(null).meta({
    description:
      "How customers pay, in the owner's words (e-Transfer address, cheque, phone): the client hub shows it on every unpaid invoice.",
  }),
  allow_local_webhooks: z.boolean().meta({
    description:
      'Whether webhook endpoints may point at this machine or the local network (loopback, private and link-local addresses). Only the signed-in owner can change it.',
  }),
  ask_for_reviews: z.boolean().meta({
    description:
      'After a visit is completed, e-mail its customer once asking for a star rating and a comment.',
  }),
  owner_alerts: z.boolean().meta({
    description:
      'E-mail business_email when a customer acts (a booking request, a review, an answer to a quote).',
  }),
  crew_on_my_way_email: z.boolean().default(false).meta({
    description:
      "When a crew member taps On my way on their phone, e-mail the visit's customer the expected arrival.",
  }),
  crew_photos_in_client_hub: z.boolean().default(false).meta({
    description:
      "Show the photos the crew took at a completed visit on that visit's page in the customer's client hub.",
  }),
  booking_page: BookingPageSettings,
};

/** The stored configuration of an account. */
export const StoredConfig = z.object(configFields);
export type StoredConfig = z.infer<typeof StoredConfig>;

/** PUT /config: any subset; an unknown field is refused. The booking page has its own route (PUT /booking-page). */
const { booking_page: _bookingPage, ...updatableFields } = configFields;
/**
 * A field's default fills in a missing field even under .partial(): unwrapped, a change of one
 * setting leaves the others as stored (serve_client_hub was reset by any other change).
 */
const withoutDefaults = (fields: Record<string, z.ZodType>) =>
  Object.fromEntries(
    Object.entries(fields).map(([name, field]) => [
      name,
      field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType).meta(field.meta() ?? {}) : field,
    ]),
  ) as { [K in keyof typeof updatableFields]: z.ZodType<z.output<(typeof updatableFields)[K]>> };

export const ConfigUpdate = z
  .strictObject({ ...withoutDefaults(updatableFields), reminders: ReminderSettingsInput })
  .partial()
  .meta({ id: 'ConfigUpdate' });
export type ConfigUpdate = z.infer<typeof ConfigUpdate>;

/** GET /config: the stored configuration without secrets. */
export const Config = z
  .object({
    ...configFields,
    smtp: SmtpSettings.omit({ password: true }).extend({ password_set: z.boolean() }).nullable(),
    plan: z.enum(['basic', 'platform']),
    api_plan: z.enum(['none', 'lite', 'essential', 'business_suite', 'growth']),
    client_id: z.string(),
  })
  .meta({ id: 'Config' });
export type Config = z.infer<typeof Config>;

export function defaultConfig(businessName: string): StoredConfig {
  return {
    business_name: businessName,
    business_email: null,
    business_phone: null,
    business_address: null,
    currency: 'CAD',
    locale: 'en-CA',
    timezone: 'America/Toronto',
    default_due_days: 30,
    default_valid_days: 30,
    default_taxes: [],
    invoice_prefix: 'INV-',
    quote_prefix: 'Q-',
    job_prefix: 'J-',
    winback_after_days: 90,
    winback_subject: 'We miss you at {business_name}',
    winback_message:
      'Hi {customer_name},\n\nIt has been a while since our last visit. We would love to help you again.\n{offer}\n\n{business_name}',
    smtp: null,
    reminders: defaultReminderSettings(),
    tax_registrations: [],
    client_hub_url: null,
    serve_client_hub: false,
    payment_instructions: null,
    allow_local_webhooks: false,
    ask_for_reviews: false,
    owner_alerts: false,
    crew_on_my_way_email: false,
    crew_photos_in_client_hub: false,
    booking_page: defaultBookingPage(),
  };
}

export const SmtpTestRequest = z
  .strictObject({
    to: Email.optional().meta({
      description:
        "Where the test goes; default the sender address (the From address or the business's e-mail).",
    }),
  })
  .meta({ id: 'SmtpTestRequest' });
export type SmtpTestRequest = z.infer<typeof SmtpTestRequest>;

/** What the mail server answered a test message: its own words, whether it took it or not. */
export const SmtpTestResult = z
  .object({
    object: z.literal('smtp_test'),
    to: Email,
    delivered: z.boolean().meta({ description: 'Whether the mail server accepted the message.' }),
    response: z.string().meta({
      description:
        "The server's reply as it said it (250 … when it took the message), or why the conversation failed: the SMTP error reply, or the connection error when the server could not be reached.",
      example: '250 2.0.0 Ok: queued as 4F1C2',
    }),
    response_code: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'The SMTP reply code, null when no server answered.' }),
  })
  .meta({ id: 'SmtpTestResult' });
export type SmtpTestResult = z.infer<typeof SmtpTestResult>;
