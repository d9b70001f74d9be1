import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { JobPhoto } from '../../../shared/schemas/crew';
import type { AppContext } from '../../context';
import { getJobPhotoImage, listJobPhotos } from '../../domain/job-photos';
import { commonErrors, PortalParams } from '../schemas';
import { crewScope } from './permissions';

const JobParams = PortalParams.extend({
  number: z.string().meta({ description: 'The job number (J-0001) or its id.' }),
});
const PhotoParams = JobParams.extend({ photo_id: z.string().meta({ description: 'The photo id (jph_…).' }) });
const tags = ['scheduling'];

const imageResponse = {
  description: 'The photo as the phone sent it (a JPEG).',
  content: { 'image/jpeg': { schema: z.any().meta({ type: 'string', format: 'binary' }) } },
};

/** The crew's photos of a job (docs/crew.md, "The phone"): the owner's job page shows them. */
export function portalJobPhotoRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/jobs/:number/photos',
      {
        schema: {
          tags,
          summary: "List a job's photos",
          description:
            'The photos the crew took at the visit, oldest first; the bytes come from the photo’s own route.',
          params: JobParams,
          response: { 200: z.object({ data: z.array(JobPhoto) }), ...commonErrors },
        },
      },
      async (request) => ({
        data: await listJobPhotos(
          ctx,
          request.auth.account.id,
          request.params.number,
          crewScope(request.auth.member),
        ),
      }),
    );

    app.get(
      '/jobs/:number/photos/:photo_id',
      {
        schema: {
          tags,
          summary: "Get a job photo's image",
          params: PhotoParams,
          response: { 200: imageResponse, ...commonErrors },
        },
      },
      async (request, reply) => {
        const { number, photo_id } = request.params;
        const photo = await getJobPhotoImage(
          ctx,
          request.auth.account.id,
          number,
          photo_id,
          crewScope(request.auth.member),
        );
        return reply
          .type(photo.content_type)
          .header('Cache-Control', 'private, max-age=3600')
          .send(photo.bytes);
      },
    );
  };
}
