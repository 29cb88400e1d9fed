// Bundles the built CLI (dist/cli/aicap.js and what it imports, dependencies included) into
// dist/cli/main.js, the package's `bin`, and its chunks in dist/cli/chunks/. Node's ES module loader
// pays for every file it resolves, reads and links: a cached `aicap call` loaded about 200 of them,
// and loads 3 from the bundle. Each command stays a chunk of its own, loaded on demand; so does every
// module the sources load with `import()` (job following, the OAuth flows...). What a `call` imports
// statically goes into one chunk, since that command runs over and over in an agent's session.
// Optional peers (MCP SDK, frameworks, Redis...) and ajv stay outside, found in node_modules, and so
// does what the sources load through `createRequire` (undici's parts, ajv's run-time helpers).
// The compiled modules the bundle copies stay in dist/cli/ (tests read them), but package.json's `files`
// ships only the bundle: test/package/install-package.test.ts checks the tarball holds what it loads.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));
const outputDirectory = join(root, 'dist', 'cli');
const entry = join(outputDirectory, 'aicap.js');
const callCommand = join(outputDirectory, 'commands', 'call.js');
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// Optional peers must be found where the user installed them, if anywhere. ajv (250 KB with its own
// dependencies) is loaded by validation alone, never by a cached `call`: it stays in node_modules, where
// it is installed anyway, rather than being copied into the package a second time.
const unbundledPackages = [...Object.keys(packageJson.peerDependencies ?? {}), 'ajv', 'ajv-formats'];
const isUnbundledPackage = (specifier) => unbundledPackages.some((name) => specifier === name || specifier.startsWith(`${name}/`));
// Large modules of data or generated code, with no state: imported from their place in dist/ rather
// than copied into the chunks (the package's install size has a budget).
const UNBUNDLED_MODULES = /[\\/]dist[\\/](tools[\\/]selection[\\/]word-senses|manifest[\\/]standalone-manifest-validators|client[\\/]call[\\/]standalone-meta-schema-validator)\.js$/;
const toPosix = (path) => path.split(sep).join('/');

// Modules that find files beside them (the inspector's assets, the Payments example, the OpenAPI
// validation worker) or resolve packages from where they are: their `import.meta.url` is replaced by
// their own place in dist/, relative to the chunk they end up in, so the bundle finds what they did.
const MODULE_URL_MARK = 'aicap-bundled-module-url:';
const keepModuleUrls = {
  name: 'keep-module-urls',
  transform(code, id) {
    if (!code.includes('import.meta.url') || id.includes(`${sep}node_modules${sep}`)) return null;
    const place = JSON.stringify(`${MODULE_URL_MARK}${toPosix(relative(root, id))}`);
    return { code: code.replaceAll('import.meta.url', `new URL(${place}, import.meta.url).href`), map: null };
  },
  renderChunk(code, chunk) {
    const chunkDirectory = dirname(join(outputDirectory, chunk.fileName));
    const marked = new RegExp(`"${MODULE_URL_MARK}([^"]+)"`, 'g');
    return { code: code.replace(marked, (_match, place) => JSON.stringify(toPosix(relative(chunkDirectory, join(root, place))))), map: null };
  },
};

// What `call` imports statically, less what the entry itself imports (`--version` stays small).
const callPath = new Set();
const findCallPath = {
  name: 'find-call-path',
  buildEnd() {
    const staticClosure = (start) => {
      const seen = new Set();
      for (const pending = [start]; pending.length > 0;) {
        const id = pending.pop();
        if (seen.has(id)) continue;
        seen.add(id);
        pending.push(...(this.getModuleInfo(id)?.importedIds ?? []));
      }
      return seen;
    };
    const entryClosure = staticClosure(entry);
    for (const id of staticClosure(callCommand)) if (!entryClosure.has(id)) callPath.add(id);
  },
};

if (!existsSync(entry)) throw new Error(`${entry} is missing: compile first (npm run build runs tsc, then this).`);
rmSync(join(outputDirectory, 'chunks'), { recursive: true, force: true });
const bundle = await rolldown({
  input: { main: entry },
  platform: 'node',
  external: (specifier, _importer, isResolved) => (isResolved ? UNBUNDLED_MODULES.test(specifier) : isUnbundledPackage(specifier)),
  plugins: [keepModuleUrls, findCallPath],
  // The entry exports nothing; chunks may then hold modules without their dependencies (see below).
  preserveEntrySignatures: false,
  // `// dist/…` before each module's code: test/e2e/cli-cache.test.ts reads them to tell which modules a process loaded.
  experimental: { attachDebugInfo: 'simple' },
  logLevel: 'warn',
});
const { output } = await bundle.write({
  dir: outputDirectory,
  format: 'es',
  entryFileNames: '[name].js',
  chunkFileNames: 'chunks/[name]-[hash].js',
  codeSplitting: { includeDependenciesRecursively: false, groups: [{ name: 'call', test: (id) => callPath.has(id) }] },
});
await bundle.close();

// The dependencies now copied into the chunks, with their licences and notices (MIT, BSD, Apache-2.0: each asks for them).
const packageRoots = new Set();
for (const chunk of output) {
  for (const id of chunk.type === 'chunk' ? chunk.moduleIds : []) {
    const match = /^(.*[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(id);
    if (match) packageRoots.add(match[1]);
  }
}
const notices = [...packageRoots].sort().map((packageRoot) => {
  const dependency = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));
  const licenceFile = ['LICENSE', 'LICENSE.md', 'LICENSE.txt', 'license', 'LICENCE'].map((name) => join(packageRoot, name)).find((path) => existsSync(path));
  if (licenceFile === undefined) throw new Error(`${dependency.name} is bundled into the CLI but has no licence file to copy beside it.`);
  const noticeFile = join(packageRoot, 'NOTICE');
  const notice = existsSync(noticeFile) ? `\n\n${readFileSync(noticeFile, 'utf8').trim()}` : '';
  return `## ${dependency.name} ${dependency.version} (${dependency.license})\n\n${readFileSync(licenceFile, 'utf8').trim()}${notice}\n`;
});
writeFileSync(
  join(outputDirectory, 'chunks', 'THIRD-PARTY-LICENSES.md'),
  `# Licences of the code bundled into the aicap CLI\n\ndist/cli/main.js and dist/cli/chunks/ hold copies of these packages.\n\n${notices.join('\n')}`,
);
