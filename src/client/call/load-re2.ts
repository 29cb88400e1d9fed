import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';

// re2js is a quarter of a megabyte of code, and most tool schemas have no `pattern`: it loads with the
// first pattern. Its CommonJS build, so that a synchronous validator can load it.
const load = createRequire(import.meta.url);
let loaded: typeof RE2JS | undefined;

/** re2js's `RE2JS` (linear-time patterns), loaded on first call. @internal */
export function loadRe2(): typeof RE2JS {
  loaded ??= (load('re2js') as { RE2JS: typeof RE2JS }).RE2JS;
  return loaded;
}
