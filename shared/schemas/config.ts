import { z } from 'zod';
import { hasAtMostDecimals, RATE_DECIMALS } from '../money';
import { Email } from './common';

export const TaxRate = z
  .number()
  .min(0)
  .max(1)
  .refine((n) => hasAtMostDecimals(n, RATE_DECIMALS), { message: 'must have at most 6 decimal places' })
  .meta({ description: 'A fraction: 0.05 means 5 percent.', example: 0.05 });

export const TaxDefinition = z.object({
  name: z.string().trim().min(1).max(40).meta({ example: 'GST' }),
  rate: TaxRate,
});

const knownTimeZones = new Map<string, boolean>();

/** Building a formatter is the only portable check, and it is slow: remember each answer. */
function isTimeZone(value: string): boolean {
  let known = knownTimeZones.get(value);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: value });
      known = true;
    } catch {
      known = false;
    }
    if (knownTimeZones.size < 1000) knownTimeZones.set(value, known);
  }
  return known;
}

export const SmtpSettings = z.object({
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535),
  secure: z.boolean().default(false),
  user: z.string().optional(),
  /** Write-only: never returned by GET /config. */
  password: z.string().optional(),
  from: Email.optional(),
});

const configFields = {
  business_name: z.string().trim().min(1).max(120),
  business_email: Email.nullable(),
  business_phone: z.string().max(40).nullable(),
  business_address: z.string().max(300).nullable(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as CAD')
    .meta({ example: 'CAD' }),
  locale: z.string().min(2).max(35).meta({ example: 'en-CA' }),
  timezone: z.string().refine(isTimeZone, { message: 'must be an IANA time zone such as America/Toronto' }),
  default_due_days: z.number().int().min(0).max(365),
  default_valid_days: z.number().int().min(1).max(365),
  default_taxes: z.array(TaxDefinition).max(5),
  invoice_prefix: z.string().max(10),
  quote_prefix: z.string().max(10),
  job_prefix: z.string().max(10),
  winback_after_days: z.number().int().min(1).max(3650),
  winback_subject: z.string().min(1).max(200),
  winback_message: z.string().min(1).max(5000),
  smtp: SmtpSettings.nullable(),
};

/** The stored configuration of an account. */
export const StoredConfig = z.object(configFields);
export type StoredConfig = z.infer<typeof StoredConfig>;

/** PUT /config: any subset; an unknown field is refused. */
export const ConfigUpdate = z.strictObject(configFields).partial().meta({ id: 'ConfigUpdate' });
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
  };
}
