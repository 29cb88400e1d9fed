// Generates a manifest from every OpenAPI description of ../shared/corpus (big/, medium/, apis-guru/,
// and oai-examples/, the OpenAPI project's own examples) that mentions links, with default options, and prints per API the Link Objects it declares, the
// manifest links generated from them, and the link.unsupported findings. Run after `npm run build`:
//   node scripts/count-corpus-links.mjs [corpus directory]
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generateManifest } from '../dist/openapi/index.js';

const corpus = resolve(process.argv[2] ?? new URL('../../shared/corpus', import.meta.url).pathname);
if (!existsSync(corpus)) {
  console.error(`No corpus at ${corpus}; pass its directory (it holds big/, medium/ and apis-guru/).`);
  process.exit(2);
}
const rows = [];
/** Every file under a directory, in name order, at most 2,000. */
function filesUnder(directory) {
  const found = [];
  const queue = [directory];
  while (queue.length > 0 && found.length < 2000) {
    const current = queue.shift();
    for (const name of readdirSync(current).sort()) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) queue.push(path);
      else if (/\.(json|ya?ml)$/.test(name)) found.push(path);
    }
  }
  return found;
}

for (const group of ['big', 'medium', 'apis-guru', 'oai-examples']) {
  const directory = join(corpus, group);
  if (!existsSync(directory)) continue;
  for (const file of filesUnder(directory)) {
    const name = file.slice(directory.length + 1);
    // A cheap text test first: only descriptions that mention links at all are generated.
    if (!/"links"\s*:|^\s+links:/m.test(readFileSync(file, 'utf8'))) continue;
    try {
      const { manifest, warnings } = await generateManifest({ input: file, strict: false });
      const entries = [...manifest.tools, ...(manifest.resources ?? [])];
      const links = entries.reduce((sum, entry) => sum + (entry.links?.length ?? 0), 0);
      const unsupported = warnings.filter((warning) => warning.code === 'link.unsupported').length;
      const findings = warnings.filter((warning) => warning.code === 'link.unsupported').map((warning) => `${warning.where}: ${warning.message}`);
      if (links + unsupported > 0) rows.push({ api: `${group}/${name}`, links, withLinks: entries.filter((entry) => entry.links?.length).length, unsupported, findings });
    } catch (error) {
      rows.push({ api: `${group}/${name}`, error: String(error?.message ?? error).slice(0, 120) });
    }
  }
}
for (const row of rows) {
  console.log(row.error ? `${row.api}: generation failed: ${row.error}` : `${row.api}: ${row.links} links on ${row.withLinks} tools, ${row.unsupported} link.unsupported findings`);
  for (const finding of row.findings ?? []) console.log(`  ${finding}`);
}
console.log(`${rows.filter((row) => row.links > 0).length} APIs carry links; ${rows.reduce((sum, row) => sum + (row.links ?? 0), 0)} links in all`);
