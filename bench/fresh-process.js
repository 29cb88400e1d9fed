// The scale section's fresh-process comparison alone (`fresh_process_discovery_vs_mcp`, its bounds and
// `fresh_process_discovery_known_vs_mcp`), without the rest of `npm run bench`: generates GitHub's
// manifest from the shared corpus, serves it beside its MCP servers as the scale section does, and
// prints the section's figures as JSON. Nothing is written to results.json. With `all`, the server
// process serves every scale API (Stripe's and Kubernetes' manifests too), as in `npm run bench`.
// Usage: node bench/fresh-process.js [rounds] [all] (rounds: default 9, at most 50)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateManifest } from 'aicap/openapi';
import { startServerProcess } from './lib/start-server-process.js';
import { freshProcessDiscovery, SCALE_APIS } from './sections/scale.js';

const [roundsText, served = 'github'] = process.argv.slice(2);
const rounds = roundsText === undefined ? undefined : Number(roundsText);
if ((rounds !== undefined && (!Number.isInteger(rounds) || rounds < 1 || rounds > 50)) || (served !== 'github' && served !== 'all')) {
  throw new Error(`Usage: node bench/fresh-process.js [rounds from 1 to 50] [all], got ${process.argv.slice(2).join(' ')}`);
}
const api = SCALE_APIS.find((entry) => entry.name === 'github');
const directory = mkdtempSync(join(tmpdir(), 'aicap-bench-fresh-process-'));
try {
  const list = [];
  for (const entry of served === 'all' ? SCALE_APIS : [api]) {
    const { manifest } = await generateManifest({ input: new URL(`../../shared/corpus/${entry.file}`, import.meta.url).pathname });
    const file = join(directory, `${entry.name}.json`);
    writeFileSync(file, JSON.stringify(manifest));
    list.push({ name: entry.name, file });
  }
  const listFile = join(directory, 'list.json');
  writeFileSync(listFile, JSON.stringify(list));
  const servers = await startServerProcess('scale', [listFile]);
  try {
    const mcpOrigins = Object.fromEntries(
      Object.entries(servers.origins)
        .filter(([name]) => name.startsWith(`${api.name}Mcp`))
        .map(([name, origin]) => [name.slice(`${api.name}Mcp`.length), origin]),
    );
    process.stdout.write(`${JSON.stringify(await freshProcessDiscovery(servers.origins[api.name], mcpOrigins, rounds), null, 2)}\n`);
  } finally {
    await servers.stop();
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}
