// Builds dist/ when it is missing or older than the sources, so `npm run example|demo|bench` work on a fresh clone.
// With --if-missing (the `prepare` script: installs from git, `npm ci`, `npm pack`) it builds only when
// dist/ is absent, so that installing a package in a working checkout never rebuilds half-edited sources.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

function newestModification(directory) {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'dist' && entry.name !== 'node_modules') newest = Math.max(newest, newestModification(path));
    } else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

const marker = join(root, 'dist', 'index.js');
const sources = Math.max(newestModification(join(root, 'src')), newestModification(join(root, 'examples')));
// The example compiles in a second step of the build; a missing example build is stale too.
const exampleMarker = join(root, 'examples', 'payments', 'dist', 'start-payments-server.js');
const missing = !existsSync(marker) || !existsSync(exampleMarker);
if (missing || (!process.argv.includes('--if-missing') && statSync(marker).mtimeMs < sources)) {
  process.stderr.write('Building aicap (dist/ is missing or stale)…\n');
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
}
