import { z } from 'zod';
import { Timestamp, text } from './common';

export const Scope = z.enum(['read', 'write']);
export type Scope = z.infer<typeof Scope>;

export const ApiKey = z
  .object({
    id: z.string(),
    object: z.literal('api_key'),
    kind: z.enum(['portal', 'v1', 'feed']),
    mode: z.enum(['live', 'test']),
    scopes: z.array(Scope),
    name: z.string().nullable(),
    redacted: z.string().meta({ description: 'The prefix and last four characters, to recognise a key.' }),
    created_at: Timestamp,
    revoked_at: Timestamp.nullable(),
    last_used_at: Timestamp.nullable(),
    previous_secret_expires_at: Timestamp.nullable().meta({
      description: 'After a rotation, when the previous secret stops working.',
    }),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKey>;

/** A key with its secret: returned once, when the key is created or rotated. */
export const ApiKeyWithSecret = ApiKey.extend({ key: z.string() }).meta({ id: 'ApiKeyWithSecret' });
export type ApiKeyWithSecret = z.infer<typeof ApiKeyWithSecret>;

export const ApiKeyCreate = z
  .strictObject({
    mode: z.enum(['live', 'test']).default('live'),
    scopes: z.array(Scope).min(1).default(['read', 'write']),
    name: text().min(1).max(80).optional(),
  })
  .meta({ id: 'ApiKeyCreate' });
export type ApiKeyCreate = z.infer<typeof ApiKeyCreate>;
