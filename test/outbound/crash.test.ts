import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { bundledArgs } from '../helpers/process-bundles';
import { startTestServer } from '../helpers/server';
import { answer, eventually, startReceiver } from './receiver';

const dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-crash-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('sends a delivery again, exactly once, after the server was killed in the middle of it', async () => {
  // First the receiver never answers, so the child is killed while the delivery is out.
  const receiver = await startReceiver(() => undefined);
  const child = spawn(process.execPath, bundledArgs('crash-child', dataDir, receiver.url), {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  try {
    // The child starts a server first: generous, for a loaded machine.
    await eventually(() => receiver.received.length === 1, 'the first attempt to reach the receiver', 90_000);
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
  const { accountId, endpointId, customerId } = JSON.parse(output.trim());
  const first = receiver.received[0]!;
  expect(JSON.parse(first.body).data.object.id).toBe(customerId);

  receiver.handle(answer(200));
  // The restarted server looks later than the claim's lease (timeout + grace), as a restart would.
  const clock = manualClock(new Date(Date.now() + 60_000));
  const server = await startTestServer({ dataDir, clock });
  try {
    await server.outbound.webhooks.runDue();
    await server.outbound.webhooks.runDue();
    expect(receiver.received).toHaveLength(2);
    const second = receiver.received[1]!;
    expect(second.headers['x-service-event-id']).toBe(first.headers['x-service-event-id']);
    expect(second.headers['x-service-delivery-id']).toBe(first.headers['x-service-delivery-id']);
    expect(second.body).toBe(first.body);

    const { listDeliveries } = await import('../../server/domain/webhooks');
    const history = await listDeliveries(server.ctx, accountId, 'portal', endpointId, { limit: 10 });
    expect(history.data).toHaveLength(1);
    expect(history.data[0]).toMatchObject({ status: 'succeeded', attempt_count: 1 });
  } finally {
    await server.stop();
    await receiver.close();
  }
}, 180_000);
