// Writes the schema object compiled into dist/ to schema/ so the JSON file never drifts from the code.
// Only the current version is written; the 0.1 and 0.2 files stay as published.
import { writeFileSync } from 'node:fs';
import { manifestSchema } from '../dist/manifest/manifest-schema.js';

writeFileSync(new URL('../schema/ai-capabilities-0.3.schema.json', import.meta.url), `${JSON.stringify(manifestSchema, null, 2)}\n`);
