import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

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
