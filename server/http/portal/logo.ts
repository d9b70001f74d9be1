import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LOGO_TYPES, Logo, LogoUpload, MAX_LOGO_BYTES } from '../../../shared/schemas/business-logo';
import type { AppContext } from '../../context';
import { deleteLogo, getLogo, getLogoImage, setLogo } from '../../domain/business-logo';
import { commonErrors, PortalParams } from '../schemas';

const tags = ['settings'];

const imageResponse = {
  description: 'The logo as it was uploaded.',
  content: Object.fromEntries(
    LOGO_TYPES.map((type) => [type, { schema: z.any().meta({ type: 'string', format: 'binary' }) }]),
  ),
};

/**
 * The business's logo (Settings › Business; docs/client-hub.md): the business's portal key or its
 * signed-in session, as every portal route; a v1 key is refused by the portal's guard.
 */
export function portalLogoRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.put(
      '/logo',
      {
        schema: {
          tags,
          summary: 'Upload the business logo',
          description: `A PNG or a JPEG of at most ${MAX_LOGO_BYTES / 1024} KB, base64-encoded; its type is read from its bytes (400 otherwise), a larger one is refused 413. Replaces the logo the business had. Shown on the client hub, the public booking page and every quote and invoice PDF.`,
          params: PortalParams,
          body: LogoUpload,
          response: { 200: Logo, ...commonErrors },
        },
      },
      (request) => setLogo(ctx, request.auth.account.id, request.body.data),
    );

    app.get(
      '/logo',
      {
        schema: {
          tags,
          summary: 'Get the business logo’s details',
          description: '404 when the business has no logo.',
          params: PortalParams,
          response: { 200: Logo, ...commonErrors },
        },
      },
      (request) => getLogo(ctx, request.auth.account.id),
    );

    app.get(
      '/logo/image',
      {
        schema: {
          tags,
          summary: 'Get the business logo’s image',
          params: PortalParams,
          response: { 200: imageResponse, ...commonErrors },
        },
      },
      async (request, reply) => {
        const logo = await getLogoImage(ctx, request.auth.account.id);
        return reply.type(logo.content_type).header('Cache-Control', 'private, no-cache').send(logo.bytes);
      },
    );

    app.delete(
      '/logo',
      {
        schema: {
          tags,
          summary: 'Remove the business logo',
          description: 'Removing a logo the business does not have changes nothing.',
          params: PortalParams,
          response: { 204: z.null(), ...commonErrors },
        },
      },
      async (request, reply) => {
        await deleteLogo(ctx, request.auth.account.id);
        return reply.status(204).send(null);
      },
    );
  };
}
