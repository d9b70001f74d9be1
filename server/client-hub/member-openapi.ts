import { z } from 'zod';
import { ErrorBody } from '../../shared/schemas/common';

/**
 * The team member's way in (join-routes.ts, passkey-routes.ts) in the OpenAPI document, under
 * "Team sign-in". Documentation only: the routes check what they are sent themselves (they share
 * the client hub's pass-through), and the passkey bodies are WebAuthn's own JSON.
 */
const tags = ['Team sign-in'];
const Html = z.string().meta({ description: 'An HTML page (no scripts; a strict Content-Security-Policy).' });
const page = (description: string) => ({ description, content: { 'text/html': { schema: Html } } });
const Token = z.object({ token: z.string().meta({ description: 'The invitation: minv_… and its secret.' }) });
const WebAuthnJson = z.record(z.string(), z.unknown()).meta({ description: 'WebAuthn JSON options.' });
const Credential = z
  .strictObject({
    id: z.string(),
    rawId: z.string(),
    type: z.literal('public-key'),
    response: z
      .record(z.string(), z.unknown())
      .meta({ description: "The authenticator's answer, base64url fields." }),
    clientExtensionResults: z.record(z.string(), z.unknown()),
    authenticatorAttachment: z.string().optional(),
  })
  .meta({ description: 'A WebAuthn credential as JSON (as @simplewebauthn/browser makes it).' });
const gone = page('Used, expired or replaced: ask the owner for a new link.');
const tooMany = page('Too many requests from this address; Retry-After says when to try again.');
const notSameOrigin = page('Not posted from a page of this server (Origin).');
const json = (description: string, schema: z.ZodType = WebAuthnJson) => ({
  description,
  content: { 'application/json': { schema } },
});
const tooManyJson = json(
  'Too many requests from this address (rate_limited); Retry-After says when.',
  ErrorBody,
);

export const MEMBER_SCHEMAS = {
  join: {
    tags,
    summary: 'An invitation’s page',
    description: 'Join <business> as <name>, with one button. Anyone holding the link.',
    security: [],
    params: Token,
    response: { 200: page('The page.'), 410: gone, 429: tooMany },
  },
  redeem: {
    tags,
    summary: 'Redeem an invitation',
    description:
      'Uses the link (once), signs the member in on this browser (cookie) and sends them on: crew to /crew/, office and owner to / on an install (/crew/ on the hosted hub, which has no office screens).',
    security: [],
    params: Token,
    consumes: ['application/x-www-form-urlencoded'],
    body: z.strictObject({ form_token: z.string().meta({ description: 'The page’s own form token.' }) }),
    response: {
      303: z.null().meta({ description: 'Signed in: Location is where the member lands.' }),
      403: page('Wrong form token, or not posted from its own page.'),
      410: gone,
      429: tooMany,
    },
  },
  signOut: {
    tags,
    summary: 'Sign the member out',
    description: 'Ends this browser’s member session everywhere (it syncs) and clears its cookie.',
    security: [],
    response: { 204: z.null().meta({ description: 'Signed out.' }), 403: notSameOrigin, 429: tooManyJson },
  },
  registrationOptions: {
    tags,
    summary: 'Start adding a passkey',
    description: 'The signed-in member only (their session cookie); 401 otherwise.',
    security: [],
    response: {
      200: json('PublicKeyCredentialCreationOptionsJSON'),
      401: json('Not signed in.', ErrorBody),
      429: tooManyJson,
    },
  },
  registration: {
    tags,
    summary: 'Add a passkey',
    description: 'The signed-in member’s answer to the options; the public key is kept (it syncs).',
    security: [],
    body: Credential,
    response: {
      201: json(
        'Added.',
        z.object({ object: z.literal('member_passkey'), id: z.string(), created_at: z.string() }),
      ),
      401: json('Not signed in, or the passkey (or an answer already used) was refused.', ErrorBody),
      429: tooManyJson,
    },
  },
  authenticationOptions: {
    tags,
    summary: 'Start signing in with a passkey',
    description: 'Anyone: the options for navigator.credentials.get().',
    security: [],
    response: { 200: json('PublicKeyCredentialRequestOptionsJSON'), 429: tooManyJson },
  },
  authentication: {
    tags,
    summary: 'Sign in with a passkey',
    description:
      'A valid signature by a passkey not revoked, of a member on the team, opens a session (cookie). 401 passkey_refused otherwise.',
    security: [],
    body: Credential,
    response: {
      200: json('Signed in.', z.object({ object: z.literal('member_sign_in'), redirect: z.string() })),
      401: json('Refused, or an answer already used.', ErrorBody),
      429: tooManyJson,
    },
  },
};
