import { assertHealthy, type BenchCase, fmt, load } from '../harness';

const seconds = (ms: number) => `${fmt(ms / 1000, 1)} s`;
const megabytes = (bytes: number) => `${fmt(bytes / 1024 / 1024, 0)} MB`;

/**
 * Backups of the 100,000-customer account: a backup's time and size, the server's latency while one
 * runs against quiet (the same load for as long as a backup takes), and a restore's time from pause
 * to resume.
 */
const backups: BenchCase = async ({ server, account, log }) => {
  const list = (duration: number) =>
    load({
      url: `${server.url}/api/portal/${account.id}/customers?limit=25`,
      headers: { authorization: `Bearer ${account.portalKey}` },
      connections: 1,
      seconds: duration,
    });

  log('  backup, quiet…');
  let started = performance.now();
  const quietBackup = await server.call('backup');
  const backupMs = performance.now() - started;

  log('  latency quiet and during a backup…');
  const window = Math.max(1, Math.floor(backupMs / 1000));
  const quiet = await list(window);
  assertHealthy('GET /customers, quiet', quiet);
  const during = server.call('backup');
  const busy = await list(window);
  await during;
  assertHealthy('GET /customers, during a backup', busy);

  log('  restore…');
  started = performance.now();
  await server.call('restore', quietBackup.id);
  const restoreMs = performance.now() - started;

  return [
    {
      case: 'backup (snapshot + verify)',
      figure: `${seconds(backupMs)}, ${megabytes(quietBackup.size_bytes)}`,
      target: '',
      pass: null,
    },
    {
      case: 'GET /customers p99 quiet / during backup',
      figure: `${quiet.p99} ms / ${busy.p99} ms (${fmt(quiet.requestsPerSecond, 0)} / ${fmt(busy.requestsPerSecond, 0)} req/s)`,
      target: '',
      pass: null,
    },
    {
      case: 'restore (copy and verify, then pause, safety copy, swap)',
      figure: seconds(restoreMs),
      target: '',
      pass: null,
    },
  ];
};
export default backups;
