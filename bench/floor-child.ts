import { type ChildMessage, serveRequests } from './child-ipc';
import { startBareFloor } from './floor';

/**
 * The bare floor in a process of its own, compiled and started like the bench's server
 * (bench/processes.ts), so both sides of a ratio are measured alike. Argument: JSON
 * `{ dataDir, accountId }`.
 */
async function main() {
  const { dataDir, accountId } = JSON.parse(process.argv[2]!) as { dataDir: string; accountId: string };
  const started = performance.now();
  const floor = await startBareFloor(dataDir, accountId);
  const ready: ChildMessage = { ready: { url: floor.url, startMs: performance.now() - started } };
  serveRequests({}, () => floor.close());
  process.send!(ready);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
