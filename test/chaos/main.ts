import { parseArgs } from 'node:util';
import { buildProcessBundlesIfStale } from '../helpers/process-bundles';
import { CHECKS, type CheckName, runCampaign } from './campaign';

const USAGE = `npm run chaos -- --minutes N [--seed S] [--skip-check NAME]… [--keep-folders]
checks: ${CHECKS.join(', ')}`;

/** `npm run chaos`: the fault campaign; the JSON summary on stdout, exit 1 on any violation. */
async function main() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    options: {
      minutes: { type: 'string' },
      seed: { type: 'string' },
      'skip-check': { type: 'string', multiple: true },
      'keep-folders': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const minutes = Number(values.minutes);
  if (!(minutes > 0)) throw new Error(`--minutes must be a positive number\n${USAGE}`);
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  if (!Number.isInteger(seed)) throw new Error(`--seed must be a whole number\n${USAGE}`);
  const skip = new Set<CheckName>();
  for (const name of values['skip-check'] ?? []) {
    if (!(CHECKS as readonly string[]).includes(name)) throw new Error(`No check ${name}\n${USAGE}`);
    skip.add(name as CheckName);
  }
  console.error(`chaos: seed ${seed}, ${minutes} min`);
  // Outside vitest nothing has built the machines' bundles yet.
  await buildProcessBundlesIfStale();
  const summary = await runCampaign({
    minutes,
    seed,
    skip,
    keepFolders: values['keep-folders'],
    progress: (line) => console.error(`chaos: ${line}`),
  });
  console.log(JSON.stringify(summary, null, 2));
  process.exit(summary.violations.length > 0 ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
