// `prepack` / `postpack`: the packed package.json carries no `prepare` script. `prepare` builds dist/ for
// installs from git; in a tarball dist/ is already built, and npm ≥ 11 warns about every install script of a
// dependency ("not yet covered by allowScripts"). `strip` keeps the original beside it and writes the
// manifest without `prepare`; `restore` puts the original back (also run first by `strip`, should an earlier
// pack have stopped half-way). Each write is a rename, so a reader never sees half a file.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const manifestPath = join(root, 'package.json');
const originalPath = join(root, '.package.json.before-pack');

function restore() {
  if (existsSync(originalPath)) renameSync(originalPath, manifestPath);
}

function strip() {
  restore();
  const text = readFileSync(manifestPath, 'utf8');
  const manifest = JSON.parse(text);
  if (manifest.scripts?.prepare === undefined) return;
  delete manifest.scripts.prepare;
  writeFileSync(originalPath, text);
  const temporaryPath = `${manifestPath}.packing`;
  writeFileSync(temporaryPath, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(temporaryPath, manifestPath);
}

const action = process.argv[2];
if (action === 'strip') strip();
else if (action === 'restore') restore();
else {
  process.stderr.write(`usage: node scripts/packed-manifest.mjs strip|restore (got ${JSON.stringify(action)})\n`);
  process.exitCode = 2;
}
