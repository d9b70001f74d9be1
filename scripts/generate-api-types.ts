import { readFileSync, writeFileSync } from 'node:fs';
import { API_TYPES_FILES, generateApiTypes } from './api-types';

/** The first line where two texts part, to say where the committed file went stale. */
function firstDifference(committed: string, generated: string): string {
  const a = committed.split('\n');
  const b = generated.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(a[at])}, generated ${JSON.stringify(b[at])}`;
}

/** No top-level await: test/api/api-types.test.ts runs this script from a CommonJS bundle. */
async function main(): Promise<void> {
  const texts = await generateApiTypes();
  if (process.argv.includes('--check')) {
    // test/api/api-types.test.ts: prints the stale files as JSON, writes nothing.
    const stale = API_TYPES_FILES.flatMap(({ file }, i) => {
      const committed = readFileSync(file, 'utf8');
      return committed === texts[i] ? [] : [`${file} ${firstDifference(committed, texts[i]!)}`];
    });
    console.log(JSON.stringify(stale));
  } else {
    API_TYPES_FILES.forEach(({ file }, i) => {
      writeFileSync(file, texts[i]!);
      console.log(`Wrote ${file}`);
    });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
