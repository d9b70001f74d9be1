import { z } from 'zod';
import { text } from './common';
import { NonNegativeMoney } from './job';

/** A wall-clock time of day, 24-hour: 08:00, 17:30. */
export const TimeOfDay = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day such as 08:30 (24-hour, HH:MM)')
  .meta({ example: '08:30' });

export const ServiceId = z
  .string()
  .regex(/^svc_[A-Za-z0-9]{1,40}$/, 'must be a service id (svc_…)')
  .meta({ example: 'svc_4Gk2m9QxPz7a' });

export const BookableService = z
  .object({
    id: ServiceId,
    name: z.string().meta({ example: 'Gutter cleaning' }),
    duration_minutes: z.number().int(),
    price: z.number().nullable().meta({ description: 'Shown to customers; null: "priced on a quote".' }),
  })
  .meta({ id: 'BookableService' });
export type BookableService = z.infer<typeof BookableService>;

/** Hours a weekday is offered, in the business's time zone (Config.timezone). */
export const OfferedHours = z
  .object({
    weekday: z.number().int().min(1).max(7).meta({ description: '1 = Monday … 7 = Sunday.' }),
    from: TimeOfDay,
    to: TimeOfDay,
  })
  .refine((w) => w.to > w.from, { message: 'to must be after from', path: ['to'] })
  .meta({ id: 'OfferedHours' });
export type OfferedHours = z.infer<typeof OfferedHours>;

/** The stored and returned settings (the account config's `booking_page`). */
export const BookingPageSettings = z
  .object({
    enabled: z.boolean().meta({ description: 'Whether the public booking page takes requests.' }),
    intro: z.string().nullable().meta({ description: 'A line shown at the top of the page.' }),
    services: z.array(BookableService),
    hours: z.array(OfferedHours),
  })
  .meta({ id: 'BookingPageSettings' });
export type BookingPageSettings = z.infer<typeof BookingPageSettings>;

export const MAX_BOOKABLE_SERVICES = 30;

export const BookingPageUpdate = z
  .strictObject({
    enabled: z.boolean(),
    intro: text().max(300).nullable().optional(),
    services: z
      .array(
        z.strictObject({
          id: ServiceId.optional().meta({
            description: 'Keep an existing service; leave out for a new one.',
          }),
          name: text().min(1).max(120),
          duration_minutes: z.number().int().min(15).max(720),
          price: NonNegativeMoney.nullable().optional(),
        }),
      )
      .max(MAX_BOOKABLE_SERVICES),
    hours: z.array(OfferedHours).max(21),
  })
  .superRefine((value, ctx) => {
    if (value.enabled && value.services.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['services'],
        message: 'list at least one service to turn the page on',
      });
    }
    if (value.enabled && value.hours.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['hours'], message: 'offer some hours to turn the page on' });
    }
    value.hours.forEach((window, i) => {
      const overlaps = value.hours.some(
        (other, j) =>
          j < i && other.weekday === window.weekday && other.from < window.to && window.from < other.to,
      );
      if (overlaps)
        ctx.addIssue({ code: 'custom', path: ['hours', i], message: 'overlaps other hours that day' });
    });
  })
  .meta({ id: 'BookingPageUpdate' });
export type BookingPageUpdate = z.infer<typeof BookingPageUpdate>;

export function defaultBookingPage(): BookingPageSettings {
  return { enabled: false, intro: null, services: [], hours: [] };
}
