// The load hook of record-loaded-modules.mjs: records each ES module's URL as it loads.
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const file = process.env['AICAP_TEST_LOADED_MODULES'];

export async function load(url, context, nextLoad) {
  if (file && url.startsWith('file:')) appendFileSync(file, `${fileURLToPath(url)}\n`);
  return nextLoad(url, context);
}
