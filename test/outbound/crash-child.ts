/**
 * Run by crash.test.ts in a child process that the test kills with SIGKILL: starts the server on
 * the given data folder, adds an endpoint for the given receiver and records an event, then
 * prints what it created and keeps running until killed.
 */
import { createAccount, updateConfig } from '../../server/domain/accounts';
import { createCustomer } from '../../server/domain/customers';
import { createEndpoint } from '../../server/domain/webhooks';
import { startServer } from '../../server/index';

const [dataDir, receiverUrl] = process.argv.slice(2);

// A function rather than top-level awaits: the test runs this file bundled as CommonJS.
async function main() {
  const server = await startServer({ dataDir: dataDir!, host: '127.0.0.1', port: 0 });
  const account = await createAccount(server.ctx, {
    businessName: 'Crashy',
    plan: 'platform',
    apiPlan: 'growth',
  });
  await updateConfig(server.ctx, account.id, { allow_local_webhooks: true });
  const endpoint = await createEndpoint(server.ctx, account.id, 'portal', {
    url: receiverUrl!,
    events: ['*'],
    enabled: true,
  });
  const customer = await createCustomer(server.ctx, account.id, { name: 'Ada', email: 'ada@example.com' });
  server.ctx.signals.emit('outbox');
  process.stdout.write(
    `${JSON.stringify({ accountId: account.id, endpointId: endpoint.id, customerId: customer.id })}\n`,
  );
}

void main();
