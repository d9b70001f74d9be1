import path from 'node:path';
import { parseCommandLine, parsePort, UsageError } from './cli-args';
import { createAccount, listAccounts } from './domain/accounts';
import { createKey } from './domain/api-keys';
import { createSignInToken } from './domain/sessions';
import { startServer } from './index';

async function main() {
  const { values } = parseCommandLine(process.argv.slice(2));
  const dataDir = path.resolve(values['data-dir']);
  const server = await startServer({
    dataDir,
    host: values.host ?? '127.0.0.1',
    port: parsePort(values.port),
    logger: false,
  });
  const { ctx } = server;
  let accounts = await listAccounts(ctx.db);
  if (accounts.length === 0) {
    // A first start on an empty folder should open straight onto a working business, not a dead end.
    const account = await createAccount(ctx, {
      businessName: 'My business',
      plan: 'platform',
      apiPlan: 'lite',
    });
    await createKey(ctx, account.id, { kind: 'portal' });
    accounts = [account];
    console.log(`Created an account in ${dataDir} (rename it under Settings).`);
  }
  console.log(`Shopdesk is running at ${server.url}`);
  console.log(`API docs: ${server.url}/docs`);
  for (const account of accounts) {
    const token = await createSignInToken(ctx, account.id);
    const label = accounts.length > 1 ? ` (${account.config.business_name}, ${account.id})` : '';
    console.log(`Sign in${label}: ${server.url}/sign-in?token=${token}`);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: finishing in-flight requests…`);
    await server.close();
    console.log('Stopped.');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  console.error(error instanceof UsageError ? `Usage: ${error.message}` : error);
  process.exit(error instanceof UsageError ? 2 : 1);
});
