import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  Backup,
  BackupFolderUpdate,
  BackupIdParams,
  BackupOverview,
  BackupStatus,
  RestoreResult,
} from '../../../shared/schemas/backup';
import { ErrorBody } from '../../../shared/schemas/common';
import type { Backups } from '../../backups/backups';
import type { AppContext } from '../../context';
import { listAccounts } from '../../domain/accounts';
import { ApiError } from '../../lib/errors';
import { commonErrors, PortalParams } from '../schemas';

/** What the running server lends the routes: its backups, and a restore that pauses it around the swap. */
export interface DataSafety {
  backups: Backups;
  /** `request` is the one asking: the pause waits for every other request, not for it. */
  restore(id: string, request: FastifyRequest): Promise<RestoreResult>;
}

const tags = ['settings'];
const Params = PortalParams.extend(BackupIdParams.shape);
const errors = { ...commonErrors, 500: ErrorBody, 503: ErrorBody };

/**
 * Settings > Backups. A backup holds the whole data folder's database, every account in it: the
 * portal chooses the folder, backs up and restores only where the folder holds one account (the
 * desktop's case); on a folder of several businesses that is the operator's, with the CLI.
 */
export function portalBackupRoutes(ctx: AppContext, safety: DataSafety): FastifyPluginAsyncZod {
  const { backups } = safety;
  const managedBy = async (): Promise<BackupOverview['managed_by']> =>
    (await listAccounts(ctx.db)).length > 1 ? 'operator' : 'owner';
  const refuseOnSharedFolder = async (what: string) => {
    const accounts = await listAccounts(ctx.db);
    if (accounts.length > 1)
      throw new ApiError(
        403,
        'operator_only',
        `This data folder holds ${accounts.length} businesses and every backup holds them all: the operator ${what} with the CLI (shopdesk backup).`,
      );
  };
  return async (app) => {
    app.get(
      '/backups',
      {
        schema: {
          tags,
          summary: 'Backups of this installation and their health (Settings > Backups)',
          params: PortalParams,
          response: { 200: BackupOverview, ...errors },
        },
      },
      async () => ({ status: backups.status(), data: backups.list(), managed_by: await managedBy() }),
    );

    app.post(
      '/backups',
      {
        schema: {
          tags,
          summary: 'Back up now',
          description:
            'Writes a consistent copy while the server keeps serving, verifies it, then applies retention. On a data folder holding several businesses: 403 operator_only (the operator backs up with the CLI).',
          params: PortalParams,
          response: { 201: Backup, ...errors },
        },
      },
      async (_request, reply) => {
        await refuseOnSharedFolder('backs it up');
        return reply.code(201).send(await backups.create('manual'));
      },
    );

    app.post(
      '/backups/:backup_id/verify',
      {
        schema: {
          tags,
          summary: 'Check a backup again (opens, integrity_check, row counts)',
          params: Params,
          response: { 200: Backup, ...errors },
        },
      },
      async (request) => {
        return backups.verify(request.params.backup_id);
      },
    );

    app.post(
      '/backups/:backup_id/restore',
      {
        schema: {
          tags,
          summary: 'Replace the data with a backup',
          description:
            'Keeps the current data as a pre-restore backup first. The server answers other requests 503 for the few seconds the swap takes.',
          params: Params,
          response: { 200: RestoreResult, ...errors },
        },
      },
      async (request) => {
        const accounts = await listAccounts(ctx.db);
        if (accounts.length > 1)
          throw new ApiError(
            409,
            'several_accounts',
            `This data folder holds ${accounts.length} accounts and a restore replaces them all: use the CLI (backup restore).`,
          );
        return safety.restore(request.params.backup_id, request);
      },
    );

    app.put(
      '/backups/folder',
      {
        schema: {
          tags,
          summary: 'Choose the backups folder',
          description:
            'On a data folder holding several businesses: 403 operator_only (the operator chooses it with the CLI).',
          params: PortalParams,
          body: BackupFolderUpdate,
          response: { 200: BackupStatus, ...errors },
        },
      },
      async (request) => {
        await refuseOnSharedFolder('chooses where its backups go');
        backups.setFolder(request.body.folder);
        return backups.status();
      },
    );
  };
}
