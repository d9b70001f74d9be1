import { z } from 'zod';
import { ListQuery, Timestamp, text } from './common';

export const PropertyStatus = z.enum(['active', 'archived']);
export type PropertyStatus = z.infer<typeof PropertyStatus>;

export const Property = z
  .object({
    id: z.string().meta({ example: 'prop_01jd3k5x2m9q7r8s6t4v2w0y1z' }),
    object: z.literal('property'),
    customer_id: z.string(),
    label: z.string().nullable().meta({ example: 'Building B' }),
    street: z.string().meta({ example: '1200 Strata Way' }),
    unit: z.string().nullable(),
    city: z.string().nullable(),
    region: z.string().nullable(),
    postal_code: z.string().nullable(),
    country: z.string().nullable(),
    access_notes: z.string().nullable().meta({
      description: 'Gate code, key safe, pets, alarm: for the crew; never in what the customer gets.',
    }),
    is_default: z.boolean().meta({ description: "The customer's default place: new work goes there." }),
    status: PropertyStatus,
    archived_at: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Property' });
export type Property = z.infer<typeof Property>;

const propertyFields = {
  label: text().max(100).nullish(),
  street: text().min(1).max(300),
  unit: text().max(50).nullish(),
  city: text().max(100).nullish(),
  region: text().max(100).nullish(),
  postal_code: text().max(20).nullish(),
  country: text().max(100).nullish(),
  access_notes: text({ multiline: true }).max(2000).nullish(),
  is_default: z.boolean().optional().meta({
    description: "true makes it the customer's default (the previous default stops being one).",
  }),
};

export const PropertyCreate = z
  .strictObject({
    customer_id: z.string().min(1).meta({ description: 'The customer (cus_…) whose place this is.' }),
    ...propertyFields,
  })
  .meta({ id: 'PropertyCreate' });
export type PropertyCreate = z.infer<typeof PropertyCreate>;

export const PropertyUpdate = z.strictObject(propertyFields).partial().meta({ id: 'PropertyUpdate' });
export type PropertyUpdate = z.infer<typeof PropertyUpdate>;

export const PropertyListQuery = ListQuery.extend({
  customer_id: z.string().min(1).optional().meta({ description: "Only this customer's places." }),
  status: PropertyStatus.optional().meta({ description: 'Default: both.' }),
});
export type PropertyListQuery = z.infer<typeof PropertyListQuery>;

/** The place a quote, job, plan, booking or invoice is for, as the record shows it. */
export const recordPlaceField = {
  property_id: z.string().nullable().meta({
    description: "The customer's place (prop_…) the record is for; null when it names none.",
    example: 'prop_01jd3k5x2m9q7r8s6t4v2w0y1z',
  }),
};

/** The place a create or update body names: one of the customer's active places. */
export const placeInputField = {
  property_id: z.string().min(1).nullish().meta({
    description:
      "One of the customer's active places (prop_…). Left out when creating (or when moving a draft to another customer): the customer's default place. null: no place.",
  }),
};
