// `npm test` on a fresh machine: the browser tests drive Debian's Chromium, its headless build
// `chromium-headless-shell` (Playwright's own browser download cannot work here; test/ui/browser.ts
// says why that build), and the hosted-hub tests start a throwaway cluster with PostgreSQL's
// binaries (test/helpers/postgres-cluster.ts). Installs whichever is missing with apt-get, as root or
// through sudo; where it cannot, says what to install and exits before any test runs, unless only the
// headless build is missing and the full browser is there (the tests then use it). When both are
// present it only looks at two paths.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const FULL_CHROMIUM = '/usr/bin/chromium';
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

function postgresBin() {
  if (process.env.PG_BIN)
    return existsSync(path.join(process.env.PG_BIN, 'initdb')) ? process.env.PG_BIN : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  return readdirSync(root)
    .map((version) => path.join(root, version, 'bin'))
    .find((bin) => existsSync(path.join(bin, 'initdb')) && existsSync(path.join(bin, 'pg_ctl')));
}

const missing = [
  ...(existsSync(chromium) ? [] : [{ what: `Chromium (${chromium})`, apt: 'chromium-headless-shell' }]),
  ...(postgresBin()
    ? []
    : [{ what: 'PostgreSQL (initdb and pg_ctl under /usr/lib/postgresql/*/bin)', apt: 'postgresql' }]),
];
if (missing.length === 0) process.exit(0);

const packages = missing.map((m) => m.apt);
const { prefix, reason } = installer();
if (!prefix) {
  if (onlyHeadlessShellMissing()) {
    console.error(
      `npm test cannot install chromium-headless-shell here (${reason}): the browser tests use ${FULL_CHROMIUM}, at about twice the CPU.`,
    );
    process.exit(0);
  }
  console.error(
    [
      `npm test needs ${missing.map((m) => m.what).join(' and ')}, and cannot install ${missing.length > 1 ? 'them' : 'it'} here: ${reason}.`,
      `Install ${packages.join(' and ')} (Debian/Ubuntu: sudo apt-get install -y ${packages.join(' ')}),`,
      'or point CHROMIUM_PATH / PG_BIN at an installed Chromium / PostgreSQL bin folder, then run npm test again.',
    ].join('\n'),
  );
  process.exit(1);
}

console.error(
  `npm test needs ${missing.map((m) => m.what).join(' and ')}: installing ${packages.join(' ')} with apt-get…`,
);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
const apt = (args) => {
  const [file, ...rest] = [...prefix, 'apt-get', ...args];
  execFileSync(file, rest, { stdio: ['ignore', 'ignore', 'inherit'], env });
};
try {
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', ...packages]);
} catch (error) {
  console.error(`apt-get could not install ${packages.join(' ')}: ${error.message}`);
  if (onlyHeadlessShellMissing()) {
    console.error(`The browser tests use ${FULL_CHROMIUM} instead, at about twice the CPU.`);
    process.exit(0);
  }
  process.exit(1);
}
const still = [
  ...(existsSync(chromium) ? [] : [chromium]),
  ...(postgresBin() ? [] : ['PostgreSQL binaries']),
];
if (still.length > 0) {
  console.error(
    `apt-get finished but ${still.join(' and ')} ${still.length > 1 ? 'are' : 'is'} still missing: set CHROMIUM_PATH / PG_BIN.`,
  );
  process.exit(1);
}

/** The tests fall back to the full browser when the headless build is all that is missing. */
function onlyHeadlessShellMissing() {
  return missing.length === 1 && !process.env.CHROMIUM_PATH && existsSync(FULL_CHROMIUM);
}

/** What apt-get runs under: nothing as root, else sudo if it needs no password (or may ask on a terminal). */
function installer() {
  if (!existsSync('/usr/bin/apt-get')) return { reason: 'this machine has no apt-get' };
  if (process.getuid?.() === 0) return { prefix: [] };
  const sudo = ['sudo', 'env', 'DEBIAN_FRONTEND=noninteractive'];
  const quiet = spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' });
  if (quiet.error) return { reason: 'it is not running as root and there is no sudo' };
  if (quiet.status === 0) return { prefix: sudo };
  if (process.stdin.isTTY && spawnSync('sudo', ['-v'], { stdio: 'inherit' }).status === 0)
    return { prefix: sudo };
  return { reason: 'it is not running as root and sudo asks for a password' };
}
