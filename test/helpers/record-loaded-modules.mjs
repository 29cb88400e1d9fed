// Preloaded with `--import` (through NODE_OPTIONS) into a process under test: appends every module it
// loads to the file named by AICAP_TEST_LOADED_MODULES, one per line. ES modules are seen by a load
// hook (it runs on the loader's thread, hence the file); CommonJS ones (undici, ajv) are read from
// the require cache when the process exits. What loaded, not how long it took: deterministic.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const file = process.env['AICAP_TEST_LOADED_MODULES'];
if (file) {
  register(new URL('./record-loaded-modules-hook.mjs', import.meta.url));
  const require = createRequire(import.meta.url);
  process.on('exit', () => {
    const cached = Object.keys(require('node:module')._cache);
    appendFileSync(file, cached.map((path) => `${path}\n`).join(''));
  });
}
