import path from 'node:path';
import { ApiKeyCreate, Scope } from '../shared/schemas/api-key';
import type { Backup } from '../shared/schemas/backup';
import { Backups } from './backups/backups';
import { openDatabaseWithBackups } from './backups/open';
import { afterRestore, keepAcrossRestore, restoreDatabase } from './backups/restore';
import { parseCommandLine, UsageError } from './cli-args';
import { IMPORT_EXPORT_HELP, runExportCommand, runImportCommand } from './cli-import-export';
import { type AppContext, createContext } from './context';
import { DatabaseKeyError } from './db/cipher';
import { runningServer } from './db/folder-lock';
import { databaseKeyFromEnvironment } from './db/key-source';
import { DataFolderError, openFailureMessage, storageProblem } from './db/storage-errors';
import { type ApiPlan, createAccount, listAccounts, type Plan, setPlans } from './domain/accounts';
import { createKey, listKeys, revokeKey, rotateKey } from './domain/api-keys';
import { clientLinkMaker } from './domain/client-links';
import { createSignInToken } from './domain/sessions';
import { OWNER_ACTOR, runAs } from './lib/actor';
import { systemClock } from './lib/clock';
import { ApiError } from './lib/errors';
import { keepHeapNearLive } from './lib/heap-growth';
import { runSyncCommand, SYNC_HELP } from './sync/cli';

const HELP = `Shopdesk CLI: what Settings does, without the UI.

  npm run --silent cli -- <command> [--data-dir DIR] [--client-id ID] [--json]

  init --business NAME [--plan basic|platform] [--api-plan none|lite|essential|business_suite|growth]
                        create an account with a portal key and a read+write v1 key
  accounts              list the accounts in the data folder
  plan [--plan P] [--api-plan A]
                        change an account's plans
  keys create [--scopes read|read,write] [--mode live|test] [--name N]
  keys list
  keys rotate --key-id ID      new secret; the old one works for 7 more days
  keys revoke --key-id ID
  portal-key            issue a new portal key (the old one stops at once)
  feed-token            issue a new calendar feed token (the old one stops at once)
  sign-in [--url URL]   print a one-time sign-in link for the portal UI, to the server running on
                        this folder (or --url; http://127.0.0.1:4300 when none runs)
${SYNC_HELP}
${IMPORT_EXPORT_HELP}
  backup create         back up now (works while the server runs)
  backup list           the backups, newest first, with their time, size and result
  backup verify ID      open a backup again: integrity_check and row counts
  backup restore ID     replace the data with a backup, keeping the current data as a backup
                        first (stop the server first, or restore from Settings > Backups)
  backup folder [DIR]   show or change the backups folder

An encrypted data folder needs its key in SHOPDESK_DB_KEY or SHOPDESK_DB_KEY_FILE (docs/backups.md).

Defaults: --data-dir ./data, --plan platform, --api-plan lite.`;

const PLANS: Plan[] = ['basic', 'platform'];
const API_PLANS: ApiPlan[] = ['none', 'lite', 'essential', 'business_suite', 'growth'];

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T)) throw new UsageError(`${flag} must be one of ${allowed.join(', ')}`);
  return value as T;
}

async function resolveAccountId(ctx: AppContext, given: string | undefined): Promise<string> {
  const accounts = await listAccounts(ctx.db);
  if (given) {
    if (!accounts.some((a) => a.id === given))
      throw new UsageError(`No account ${given} in this data folder`);
    return given;
  }
  if (accounts.length === 1) return accounts[0]!.id;
  if (accounts.length === 0) throw new UsageError('This data folder has no account yet: run init first');
  throw new UsageError(`This data folder holds ${accounts.length} accounts: pass --client-id`);
}

function parseScopes(value: string | undefined) {
  if (value === undefined) return undefined;
  const parsed = Scope.array().safeParse(value.split(',').map((s) => s.trim()));
  if (!parsed.success) throw new UsageError('--scopes must be read or read,write');
  return parsed.data;
}

type Output = (json: unknown, text: string) => void;

function describeBackup(backup: Backup): string {
  const size = `${(backup.size_bytes / 1024 / 1024).toFixed(1)} MB`;
  const problem = backup.error ? `  ${backup.error}` : '';
  return `${backup.id}  ${backup.created_at}  ${size.padStart(9)}  ${backup.reason.padEnd(13)}  ${backup.result}${problem}`;
}

async function runBackupCommand(
  backups: Backups,
  sub: string | undefined,
  id: string | undefined,
  out: Output,
) {
  const needId = () => {
    if (!id) throw new UsageError(`backup ${sub} needs the backup's id (backup list shows them)`);
    return id;
  };
  if (sub === 'create') {
    const backup = await backups.create('manual');
    out(backup, `Backed up to ${backup.file}\n${describeBackup(backup)}`);
  } else if (sub === 'list') {
    const list = backups.list();
    const status = backups.status();
    out(
      { status, data: list },
      [`Backups in ${status.folder} (${status.health})`, ...list.map(describeBackup)].join('\n'),
    );
  } else if (sub === 'verify') {
    const backup = await backups.verify(needId());
    out(backup, describeBackup(backup));
    if (backup.result !== 'verified') process.exitCode = 1;
  } else if (sub === 'restore') {
    const running = runningServer(backups.dataDir);
    if (running)
      throw new UsageError(
        `A server (pid ${running.pid}) is running on this data folder: stop it, or restore from Settings > Backups${running.url ? ` at ${running.url}` : ''}`,
      );
    const before = await openDatabaseWithBackups(backups);
    const kept = await keepAcrossRestore(before.db);
    await before.close();
    const result = await restoreDatabase(backups, needId());
    const after = await openDatabaseWithBackups(backups);
    try {
      await afterRestore(after.db, kept);
    } finally {
      await after.close();
    }
    out(
      result,
      `Restored ${result.restored.id}. The data as it was is kept as backup ${result.safety_copy.id}.`,
    );
  } else if (sub === 'folder') {
    if (id) backups.setFolder(path.resolve(id));
    out({ folder: backups.folder() }, backups.folder());
  } else {
    throw new UsageError('backup takes create, list, verify, restore or folder');
  }
}

async function run(argv: string[], print: (text: string) => void): Promise<void> {
  const { values, positionals } = parseCommandLine(argv);
  const [command, sub] = positionals;
  if (values.help || !command) {
    print(HELP);
    return;
  }
  const dataDir = path.resolve(values['data-dir']);
  const key = databaseKeyFromEnvironment(process.env);
  const backups = new Backups({ dataDir, key, clock: systemClock });
  const out = (json: unknown, text: string) => print(values.json ? JSON.stringify(json, null, 2) : text);
  if (command === 'backup') {
    await runBackupCommand(backups, sub, positionals[2], out);
    return;
  }
  const database = await openDatabaseWithBackups(backups);
  const ctx = createContext(database.db, systemClock);
  // Review requests carry a client hub link wherever the business set its hub's address.
  ctx.clientLinks = clientLinkMaker(systemClock);
  try {
    switch (command) {
      case 'init': {
        if (!values.business) throw new UsageError('init needs --business NAME');
        const account = await createAccount(ctx, {
          businessName: values.business,
          plan: oneOf('--plan', values.plan, PLANS) ?? 'platform',
          apiPlan: oneOf('--api-plan', values['api-plan'], API_PLANS) ?? 'lite',
        });
        const portal = await createKey(ctx, account.id, { kind: 'portal' });
        const v1 = await createKey(ctx, account.id, {
          kind: 'v1',
          scopes: ['read', 'write'],
          name: 'Created by init',
        });
        out(
          { client_id: account.id, portal_key: portal.key, v1_key: v1.key },
          [
            `Created ${values.business} (${account.id}), plan ${account.plan}, API plan ${account.api_plan}.`,
            `Portal key: ${portal.key}`,
            `v1 key:     ${v1.key}`,
            'Keep the keys now: they are not shown again.',
          ].join('\n'),
        );
        return;
      }
      case 'accounts': {
        const accounts = await listAccounts(ctx.db);
        const rows = accounts.map((a) => ({
          client_id: a.id,
          business_name: a.config.business_name,
          plan: a.plan,
          api_plan: a.api_plan,
        }));
        out(
          rows,
          rows.map((r) => `${r.client_id}  ${r.plan}/${r.api_plan}  ${r.business_name}`).join('\n') ||
            'No accounts.',
        );
        return;
      }
      case 'plan': {
        const accountId = await resolveAccountId(ctx, values['client-id']);
        const account = await setPlans(ctx, accountId, {
          plan: oneOf('--plan', values.plan, PLANS),
          apiPlan: oneOf('--api-plan', values['api-plan'], API_PLANS),
        });
        out(
          { client_id: account.id, plan: account.plan, api_plan: account.api_plan },
          `${account.id}: plan ${account.plan}, API plan ${account.api_plan}`,
        );
        return;
      }
      case 'keys': {
        const accountId = await resolveAccountId(ctx, values['client-id']);
        if (sub === 'create') {
          const input = ApiKeyCreate.parse({
            mode: oneOf('--mode', values.mode, ['live', 'test']),
            scopes: parseScopes(values.scopes),
            name: values.name,
          });
          const key = await createKey(ctx, accountId, { kind: 'v1', ...input });
          out(key, `${key.id} (${key.scopes.join(',')}): ${key.key}\nKeep it now: it is not shown again.`);
        } else if (sub === 'list') {
          const keys = await listKeys(ctx, accountId, 'v1');
          out(
            keys,
            keys
              .map(
                (k) =>
                  `${k.id}  ${k.redacted}  ${k.scopes.join(',')}  ${k.revoked_at ? `revoked ${k.revoked_at}` : 'active'}`,
              )
              .join('\n') || 'No v1 keys.',
          );
        } else if (sub === 'rotate' || sub === 'revoke') {
          const keyId = values['key-id'];
          if (!keyId) throw new UsageError(`keys ${sub} needs --key-id ID`);
          if (sub === 'rotate') {
            const key = await rotateKey(ctx, accountId, keyId);
            out(
              key,
              `${key.id}: ${key.key}\nThe previous secret works until ${key.previous_secret_expires_at}.`,
            );
          } else {
            const key = await revokeKey(ctx, accountId, keyId);
            out(key, `${key.id} revoked.`);
          }
        } else {
          throw new UsageError('keys takes create, list, rotate or revoke');
        }
        return;
      }
      case 'portal-key':
      case 'feed-token': {
        const accountId = await resolveAccountId(ctx, values['client-id']);
        const key = await createKey(ctx, accountId, { kind: command === 'portal-key' ? 'portal' : 'feed' });
        out(key, `${key.key}\nKeep it now: it is not shown again.`);
        return;
      }
      case 'sign-in': {
        const accountId = await resolveAccountId(ctx, values['client-id']);
        const token = await createSignInToken(ctx, accountId);
        // The link must reach the server that runs on this folder, wherever it listens.
        const running = values.url ? null : runningServer(dataDir)?.url;
        const base = (values.url ?? running ?? 'http://127.0.0.1:4300').replace(/\/$/, '');
        const notRunning =
          values.url || running ? '' : '\nNo server runs on this folder yet: start it with npm run serve.';
        out(
          { url: `${base}/sign-in?token=${token}` },
          `Sign in: ${base}/sign-in?token=${token}${notRunning}`,
        );
        return;
      }
      case 'sync':
        await runSyncCommand(
          sub,
          values,
          ctx,
          database,
          () => resolveAccountId(ctx, values['client-id']),
          out,
          dataDir,
        );
        return;
      case 'import':
        await runImportCommand(
          positionals.slice(1),
          values,
          ctx,
          () => resolveAccountId(ctx, values['client-id']),
          out,
          dataDir,
        );
        return;
      case 'export':
        await runExportCommand(
          positionals.slice(1),
          values,
          ctx,
          () => resolveAccountId(ctx, values['client-id']),
          print,
        );
        return;
      default:
        throw new UsageError(`Unknown command ${command}. Run with --help for the list.`);
    }
  } catch (error) {
    // A full disk or a file found damaged mid-command: the same one line as at start.
    if (storageProblem(error)) throw new DataFolderError(openFailureMessage(dataDir, error));
    throw error;
  } finally {
    await database.close();
  }
}

keepHeapNearLive();
// Whoever runs the command line on the business's computer is its owner, as the install's own sign-in.
runAs(OWNER_ACTOR, () => run(process.argv.slice(2), (text) => console.log(text))).catch((error) => {
  if (error instanceof UsageError) {
    console.error(`shopdesk: ${error.message}`);
    process.exit(2);
  }
  if (error instanceof ApiError || error instanceof DataFolderError || error instanceof DatabaseKeyError) {
    console.error(`shopdesk: ${error.message}`);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
});
