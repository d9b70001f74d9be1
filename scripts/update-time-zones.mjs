// Writes shared/time-zone-data.json, the one zone database the server and the UI share, from the
// IANA data that moment-timezone publishes on npm (packed form, documented in its README).
// Usage: node scripts/update-time-zones.mjs [path/to/latest.json]
// Without a path it fetches the newest moment-timezone with `npm pack`; only its data file is used.
// Transitions before 1970 are dropped: no record of a back office is older, and the UI loads the file.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = path.join(root, 'shared/time-zone-data.json');
const CUTOFF_MINUTES = 0;

function readPacked(argument) {
  if (argument)
    return { packed: JSON.parse(readFileSync(argument, 'utf8')), source: path.basename(argument) };
  const dir = mkdtempSync(path.join(tmpdir(), 'shopdesk-tz-'));
  try {
    const tarball = execFileSync('npm', ['pack', 'moment-timezone', '--silent', '--pack-destination', dir], {
      encoding: 'utf8',
    }).trim();
    execFileSync('tar', ['-xzf', path.join(dir, tarball), '-C', dir]);
    return {
      packed: JSON.parse(readFileSync(path.join(dir, 'package/data/packed/latest.json'), 'utf8')),
      source: tarball.replace(/\.tgz$/, ''),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX';

function unpackBase60(text) {
  const [whole, fraction = ''] = text.replace(/^-/, '').split('.');
  let value = 0;
  for (const c of whole) value = value * 60 + DIGITS.indexOf(c);
  let scale = 1;
  for (const c of fraction) {
    scale /= 60;
    value += DIGITS.indexOf(c) * scale;
  }
  return text.startsWith('-') ? -value : value;
}

function packBase60(number) {
  const sign = number < 0 ? '-' : '';
  let rest = Math.abs(number);
  let whole = Math.floor(rest);
  rest -= whole;
  let text = '';
  do {
    text = DIGITS[whole % 60] + text;
    whole = Math.floor(whole / 60);
  } while (whole > 0);
  if (rest > 1e-9) {
    text += '.';
    for (let i = 0; i < 4 && rest > 1e-9; i++) {
      rest *= 60;
      const digit = Math.floor(rest + 1e-9);
      text += DIGITS[digit];
      rest -= digit;
    }
  }
  return sign + text;
}

/** A packed zone with the periods that ended before the cutoff removed (same packed form). */
function trimZone(line) {
  const [name, abbrs, offsets, indices, untilText = ''] = line.split('|');
  const deltas = untilText ? untilText.split(' ').map(unpackBase60) : [];
  const untils = [];
  let sum = 0;
  for (const delta of deltas) {
    // Float sums of base-60 fractions drift; transitions are never finer than a second.
    sum = Math.round((sum + delta) * 60) / 60;
    untils.push(sum);
  }
  const periods = [...indices].map((c, i) => ({ index: DIGITS.indexOf(c), until: untils[i] ?? Infinity }));
  const kept = periods.filter((p) => p.until > CUTOFF_MINUTES);
  const abbrList = abbrs.split(' ');
  const offsetList = offsets.split(' ');
  const used = [...new Set(kept.map((p) => p.index))];
  const keptUntils = kept.filter((p) => p.until !== Infinity).map((p) => p.until);
  return [
    name,
    used.map((i) => abbrList[i]).join(' '),
    used.map((i) => offsetList[i]).join(' '),
    kept.map((p) => DIGITS[used.indexOf(p.index)]).join(''),
    keptUntils.map((u, i) => packBase60(i === 0 ? u : u - keptUntils[i - 1])).join(' '),
  ].join('|');
}

const { packed, source } = readPacked(process.argv[2]);
const zones = packed.zones.map(trimZone);
const names = new Set(zones.map((z) => z.split('|')[0]));
const links = packed.links.filter((l) => l.split('|').some((n) => names.has(n)));
writeFileSync(target, `${JSON.stringify({ version: packed.version, source, zones, links }, null, 1)}\n`);
console.log(`${target}: IANA ${packed.version} from ${source}, ${zones.length} zones, ${links.length} links`);
