import { z } from 'zod';
import { ErrorBody } from '../../shared/schemas/common';

/** The path parameter every portal route has. */
export const PortalParams = z.object({
  client_id: z.string().meta({ description: 'The account id (Settings > Integrations).' }),
});

/** Error responses for the OpenAPI document; every route can answer these. */
export const commonErrors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  429: ErrorBody,
} as const;
