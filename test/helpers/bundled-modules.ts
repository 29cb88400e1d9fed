import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';

/** A file of the CLI's bundle (`scripts/bundle-cli.mjs`), by its path from the repository's root. */
const BUNDLE_FILE = /^dist\/cli\/(main\.js|chunks\/[^/]+\.js)$/;

/**
 * The modules behind some files of the repository (paths from its root, forward slashes): a file of
 * the CLI's bundle stands for the modules the bundler copied into it, read from the `// <path>` line
 * it writes before each one's code (`dist/…`, `node_modules/…`); any other file for itself. What a
 * bundled CLI process ran, from the files it loaded.
 */
export async function bundledModules(files: readonly string[], root: string): Promise<string[]> {
  const modules: string[] = [];
  for (const file of files) {
    if (!BUNDLE_FILE.test(file)) {
      modules.push(file);
      continue;
    }
    const text = await readFile(join(root, file), 'utf8');
    for (const match of text.matchAll(/^\/\/ ((?:dist|node_modules)\/\S+)$/gm)) modules.push(match[1]!);
  }
  return modules;
}

// A module specifier relative to the file that holds it: static and dynamic imports, and the
// `new URL("./x.js", import.meta.url)` by which code finds a file beside it (a script it spawns, a
// worker). The bundle's plugin writes `new URL("./x.js", new URL("../../place.js", import.meta.url).href)`
// for a module that moved into a chunk: the inner URL is where the module was before bundling.
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;
const MODULE_URL = /new URL\("(\.{1,2}\/[^"]+\.js)", (?:new URL\("(\.{1,2}\/[^"]+)", import\.meta\.url\)\.href|import\.meta\.url)\)/g;

/**
 * The package's own files that a process started at `entry` can load (paths from `root`, forward
 * slashes), following relative imports and module URLs from file to file. Packages in node_modules
 * are not followed: the package's dependencies bring them.
 */
export async function filesReachedFrom(entry: string, root: string): Promise<string[]> {
  const reached = new Set<string>();
  const pending = [posix.normalize(entry)];
  while (pending.length > 0 && reached.size < 10_000) {
    const file = pending.pop()!;
    if (reached.has(file)) continue;
    reached.add(file);
    const text = await readFile(join(root, file), 'utf8').catch(() => '');
    for (const match of text.matchAll(RELATIVE_IMPORT)) pending.push(posix.join(posix.dirname(file), match[1]!));
    for (const match of text.matchAll(MODULE_URL)) {
      const base = match[2] === undefined ? file : posix.join(posix.dirname(file), match[2]);
      pending.push(posix.join(posix.dirname(base), match[1]!));
    }
  }
  return [...reached].sort();
}
