import { z } from 'zod';
import type { AppContext } from '../../context';
import { getCustomer } from '../../domain/customers';
import { ApiError, validationError } from '../../lib/errors';

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

/** Omit that keeps the known keys of a type with an index signature (a strict zod object's output). */
type Without<T, Keys> = { [K in keyof T as K extends Keys ? never : K]: T[K] };

interface ClientReference {
  client_id?: string | undefined;
  customer_id?: string | undefined;
  customer_email?: string | undefined;
}

function withoutClientId<B extends ClientReference>(body: B): Without<B, 'client_id'> {
  const { client_id: _id, ...rest } = body;
  return rest as unknown as Without<B, 'client_id'>;
}

/**
 * A v1 create body in the domain's terms: `client_id` becomes the domain's `customer_id` (a
 * client without e-mail can only be named so). An unknown id, or an id and an e-mail naming two
 * different clients, is 400 on client_id.
 */
async function clientReference<B extends ClientReference>(ctx: AppContext, accountId: string, body: B) {
  const { client_id, customer_email } = body;
  const rest = withoutClientId(body);
  if (client_id === undefined) return rest;
  const customer = await getCustomer(ctx, accountId, client_id).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) {
      throw validationError(`No client ${client_id} in this account`, 'client_id');
    }
    throw error;
  });
  if (customer_email !== undefined && customer_email.toLowerCase() !== customer.email?.toLowerCase()) {
    throw validationError(
      `client_id ${client_id} is ${customer.email ?? 'a client without e-mail'}, not ${customer_email}: send one of them`,
      'client_id',
    );
  }
  return { ...rest, customer_id: client_id, customer_email: undefined };
}

/** A body whose client is required (v1CreateBody with required: true), in the domain's terms. */
export async function withClientReference<B extends ClientReference>(
  ctx: AppContext,
  accountId: string,
  body: B,
) {
  const reference = await clientReference(ctx, accountId, body);
  if (reference.customer_id === undefined && reference.customer_email === undefined)
    throw validationError('send client_id or customer_email', 'client_id');
  return reference;
}

/** A body whose client may be left out (a review defaults to its job's client). */
export const withOptionalClientReference = clientReference;
