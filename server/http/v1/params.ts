import { z } from 'zod';

/** The {id} path parameter of v1 routes. */
export const IdParams = (what: string, example: string) =>
  z.object({
    id: z
      .string()
      .min(1)
      .meta({ description: `The ${what}'s id.`, example }),
  });

/** OpenAPI tag of a v1 resource, so Swagger UI groups v1 routes apart from the portal's. */
export const v1Tag = (resource: string) => [`v1 ${resource}`];

/** v1 calls customers clients: its client_id filter is the domain's customer_id. */
export function clientFilter<Q extends { client_id?: string | undefined }>(
  query: Q,
): Omit<Q, 'client_id'> & { customer_id: string | undefined } {
  const { client_id, ...rest } = query;
  return { ...rest, customer_id: client_id };
}
