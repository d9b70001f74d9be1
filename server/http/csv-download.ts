import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/** The 200 answer of a route that sends a CSV file, for the OpenAPI document. */
export const csvFileResponse = {
  description: 'The CSV file.',
  content: { 'text/csv': { schema: z.any().meta({ type: 'string' }) } },
};

/**
 * Sends a CSV file as a download. The name is cleaned of quotes, backslashes and line breaks, which
 * would end the header's quoted value; no-store, since it holds the business's data.
 */
export function sendCsv(reply: FastifyReply, filename: string, body: string | NodeJS.ReadableStream) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('Content-Disposition', `attachment; filename="${filename.replace(/["\\\r\n]/g, '_')}"`)
    .header('Cache-Control', 'no-store')
    .send(body);
}
