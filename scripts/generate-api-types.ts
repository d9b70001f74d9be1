import { writeFileSync } from 'node:fs';
import { API_TYPES_FILES, generateApiTypes } from './api-types';

const texts = await generateApiTypes();
API_TYPES_FILES.forEach(({ file }, i) => {
  writeFileSync(file, texts[i]!);
  console.log(`Wrote ${file}`);
});
