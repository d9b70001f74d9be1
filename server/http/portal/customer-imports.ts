import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CustomerImport,
  ImportPreviewBody,
  ImportRunBody,
  PreviewRow,
} from '../../../shared/schemas/customer-import';
import type { AppContext } from '../../context';
import type { WriterConnection } from '../../db/writer-connection';
import * as imports from '../../domain/customer-import/imports';
import { RunBoard } from '../../domain/customer-import/run';
import { unsupportedMediaType } from '../../lib/errors';
import { csvFileResponse, sendCsv } from '../csv-download';
import { commonErrors, PortalParams } from '../schemas';

const tags = ['customers'];
const Params = PortalParams.extend({
  import_id: z.string().min(1).meta({ description: "The import's id (imp_…)." }),
});

/** What the server gives the import routes: the uploads' folder and a connection of a run's own. */
export interface ImportSetup {
  folder: string;
  connect(): WriterConnection;
}

const runStarted = (summary: string, description: string) => ({
  tags,
  summary,
  description: `${description} Answers 202 at once, the run going on in the background: poll GET /customer-imports/{import_id} (run.state, run.rows_done of run.rows_total) until it is no longer running. One run at a time: another while one runs is 409 conflict. With an Idempotency-Key, a repeat gets the first answer back instead of a second run.`,
});

/**
 * Settings > Import: upload a CSV of customers, map its columns, preview, dry run, import, undo
 * (docs/import-export.md). Thin: the rules are in server/domain/customer-import.
 */
export function portalCustomerImportRoutes(ctx: AppContext, setup: ImportSetup): FastifyPluginAsyncZod {
  return async (app) => {
    const place: imports.ImportPlace = {
      folder: setup.folder,
      runs: new RunBoard(),
      connect: setup.connect,
      logError: (error) => app.log.error({ err: error }, 'customer import run failed'),
    };
    // A run still going when the server closes stops at its next batch, rolled back whole.
    app.addHook('onClose', () => place.runs.stop());
    // The file is streamed to disk as it arrives, never held whole: this parser hands the route the stream.
    app.addContentTypeParser('text/csv', (_request, payload, done) => done(null, payload));
    app.post(
      '/customer-imports',
      {
        config: { csvUpload: true },
        schema: {
          tags,
          summary: 'Upload a CSV of customers',
          description: `The body is the file itself (Content-Type: text/csv), up to ${imports.MAX_UPLOAD_BYTES / 1024 / 1024} MB, UTF-8 (with or without BOM) or Windows-1252, separated by , ; or tab. Answers with its header row, the export it was recognised as (Jobber, Housecall Pro, QuickBooks Online) and a suggested mapping. Nothing is imported yet.`,
          params: PortalParams,
          querystring: z.object({ file_name: z.string().trim().min(1).max(200).default('customers.csv') }),
          response: { 201: CustomerImport, ...commonErrors },
        },
      },
      async (request, reply) => {
        const body = request.body as Readable | undefined;
        if (!body || typeof body.pipe !== 'function') {
          throw unsupportedMediaType(
            'Send the CSV file itself as the body, with Content-Type: text/csv.',
            'Content-Type',
          );
        }
        const created = await imports.uploadImport(
          ctx,
          place,
          request.auth.account.id,
          request.query.file_name,
          body,
        );
        return reply.status(201).send(created);
      },
    );

    app.get(
      '/customer-imports/:import_id',
      {
        schema: {
          tags,
          summary: 'An upload and what became of it',
          description:
            'run is the last dry run, import or undo: while its state is running, rows_done says how far it is (poll this).',
          params: Params,
          response: { 200: CustomerImport, ...commonErrors },
        },
      },
      (request) => imports.getImport(ctx, place, request.auth.account.id, request.params.import_id),
    );

    app.post(
      '/customer-imports/:import_id/preview',
      {
        schema: {
          tags,
          summary: 'The first rows as they will be saved with a mapping',
          params: Params,
          body: ImportPreviewBody,
          response: { 200: z.object({ rows: z.array(PreviewRow) }), ...commonErrors },
        },
      },
      (request) =>
        imports.previewImport(
          ctx,
          place,
          request.auth.account.id,
          request.params.import_id,
          request.body.columns,
        ),
    );

    app.post(
      '/customer-imports/:import_id/dry-run',
      {
        schema: {
          ...runStarted(
            'Read the whole file without writing anything',
            "Counts the customers that would be added, updated or skipped and every row that would be rejected, with its reason (dry_run, when the run succeeded). It walks the import's own code with the writes left out, so the counts are what the import will do.",
          ),
          params: Params,
          body: ImportRunBody,
          response: { 202: CustomerImport, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply
          .status(202)
          .send(
            await imports.dryRunImport(
              ctx,
              place,
              request.auth.account.id,
              request.params.import_id,
              request.body,
            ),
          ),
    );

    app.post(
      '/customer-imports/:import_id/import',
      {
        schema: {
          ...runStarted(
            'Import the file, all or nothing',
            'One transaction for the whole file: either every row that can be imported is, or nothing is (a run cut short, even by the app stopping, is marked failed and left nothing). Sends customer.created for each new customer only with send_events: true.',
          ),
          params: Params,
          body: ImportRunBody,
          response: { 202: CustomerImport, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply
          .status(202)
          .send(
            await imports.runImport(
              ctx,
              place,
              request.auth.account.id,
              request.params.import_id,
              request.body,
            ),
          ),
    );

    app.get(
      '/customer-imports/:import_id/rejected.csv',
      {
        schema: {
          tags,
          summary: 'The rejected rows of the last dry run or import, as CSV',
          description: "The file's own columns, then the row number and the reason, to fix and upload again.",
          params: Params,
          response: {
            200: csvFileResponse,
            ...commonErrors,
          },
        },
      },
      async (request, reply) => {
        const { file, filename } = await imports.rejectedRowsFile(
          ctx,
          place,
          request.auth.account.id,
          request.params.import_id,
        );
        return sendCsv(reply, filename, createReadStream(file));
      },
    );

    app.post(
      '/customer-imports/:import_id/undo',
      {
        schema: {
          ...runStarted(
            'Undo an import, whole',
            'Removes the customers it added and puts back the ones it updated, in one transaction; refused (409) once any of them changed since.',
          ),
          params: Params,
          response: { 202: CustomerImport, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply
          .status(202)
          .send(await imports.undoImport(ctx, place, request.auth.account.id, request.params.import_id)),
    );
  };
}
