import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import type { AppContext } from '../context';

const SystemStatus = z
  .object({
    online: z
      .boolean()
      .meta({ description: 'Whether outbound work (webhooks, e-mail, sync) may use the network.' }),
    version: z.string().meta({ description: 'The Shopdesk version serving this request.' }),
  })
  .meta({ id: 'SystemStatus' });

/** Like /health, answered without a key: it tells a local caller what the installation is doing, no data. */
export function systemRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/system/status',
      {
        schema: {
          tags: ['system'],
          summary: 'Connectivity and version of this installation',
          security: [],
          response: { 200: SystemStatus },
        },
      },
      async () => ({ online: ctx.connectivity.online, version: packageJson.version }),
    );
  };
}
