import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { API_TYPES_FILES, generateApiTypes } from '../../scripts/api-types';

/** The first line where two texts part, to say where the committed file went stale. */
function firstDifference(committed: string, generated: string): string {
  const a = committed.split('\n');
  const b = generated.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(a[at])}, generated ${JSON.stringify(b[at])}`;
}

it('the generated API types are what the server routes generate today', async () => {
  const generated = await generateApiTypes();
  const stale = API_TYPES_FILES.flatMap(({ file }, i) => {
    const committed = readFileSync(file, 'utf8');
    return committed === generated[i] ? [] : [`${file} ${firstDifference(committed, generated[i]!)}`];
  });
  expect(stale, 'stale: run `npm run generate:api-types` and commit the result').toEqual([]);
}, 180_000);
