// One discovery in this fresh process, for the scale section's whole-process figures. Prints one
// JSON line: the discovery's wall time and client CPU time, the process's peak RSS (Node itself
// included) and the RSS before discovering (what Node and the loaded modules take alone), and the
// CPU time of loading the modules. With `mcp`, the same for an MCP SDK client's connect + listTools
// of an `/mcp` endpoint (the fresh-process MCP comparison).
// Modes: `aicap` (cold: nothing stored), `mcp`, `known <directory>` (a client on the file cache store
// of `aicap/node` in that directory, which an earlier `prime` process left the manifest's verified
// record in), `prime <directory>` (discovers once and keeps only the verified-manifest records there,
// so that a `known` process still downloads the whole manifest and meets the record through its bytes),
// and three bounds on what a client can reach: `floor` (a bare `node:http` request of the manifest +
// one-byte decoding + `JSON.parse`: no checks at all), `strict` (the same request, then the strict
// read alone: what the specification's section 2 makes every client check of the whole document
// before using any of it) and `checks` (the same request, then `parseManifest` of the bytes: the
// strict read and validation, and nothing else of a client).
// Usage: node bench/sections/discover-once.js <origin> [aicap | mcp | known <directory> | prime <directory> | floor | strict | checks]
import { performance } from 'node:perf_hooks';

const [origin, mode = 'aicap', directory] = process.argv.slice(2);
const DISCOVERIES = { aicap: aicapDiscovery, known: aicapDiscovery, prime: aicapDiscovery, mcp: mcpDiscovery, floor: floorDiscovery, strict: floorDiscovery, checks: floorDiscovery };
// A mistyped mode would otherwise measure a cold aicap discovery under another name.
if (!origin || !Object.hasOwn(DISCOVERIES, mode) || ((mode === 'known' || mode === 'prime') && !directory)) {
  throw new Error(`Usage: node bench/sections/discover-once.js <origin> [aicap | mcp | known <directory> | prime <directory> | floor | strict | checks], got ${JSON.stringify(process.argv.slice(2))}`);
}
const loadStartedAt = process.cpuUsage();
const discover = await DISCOVERIES[mode]();
const load = process.cpuUsage(loadStartedAt);
const baselineRssInMiB = process.memoryUsage().rss / 1_048_576;
const cpuBefore = process.cpuUsage();
const startedAt = performance.now();
const tools = await discover.run();
const discoveryInMs = performance.now() - startedAt;
const cpu = process.cpuUsage(cpuBefore);
if (tools === 0) throw new Error(`${origin} has no tools.`);
await discover.close();
const cpuInMs = (cpu.user + cpu.system) / 1000;
const moduleLoadCpuInMs = (load.user + load.system) / 1000;
process.stdout.write(`${JSON.stringify({ mode, discoveryInMs, cpuInMs, moduleLoadCpuInMs, peakRssInMiB: process.resourceUsage().maxRSS / 1024, baselineRssInMiB, tools })}\n`);

async function aicapDiscovery() {
  const { createClient } = await import('aicap/client');
  const cache = mode === 'aicap' ? undefined : await fileStore();
  const client = createClient(cache ? { cache } : {});
  return { run: async () => (await client.discover(origin)).manifest.tools.length, close: () => client.close() };
}

/** The file store of `directory`; when priming, behind a filter that lets only the verified records through. */
async function fileStore() {
  const { createFileCacheStore } = await import('aicap/node');
  const store = createFileCacheStore({ directory, warn: (message) => process.stderr.write(`${message}\n`) });
  if (mode === 'known') return store;
  const { createRecordsOnlyStore } = await import('../lib/records-only-store.js');
  return createRecordsOnlyStore(['verified'], store);
}

/**
 * The floor, or the floor's request followed by the strict read (`strict`: the reader under
 * `parseManifest`, not exported, so taken from the build as the floor's decoding is) or by
 * `parseManifest` (`checks`, which must find the manifest valid).
 */
async function floorDiscovery() {
  const { createNodeAgent, nodeRequest } = await import('../lib/node-request.js');
  const { MANIFEST_MEDIA_TYPE, WELL_KNOWN_PATH, parseManifest } = await import('aicap');
  const { parseJsonBytes } = await import('../lib/parse-json-bytes.js');
  const { readJsonDocument } = await import('../../dist/manifest/parse-json-document.js');
  return {
    async run() {
      const agent = createNodeAgent();
      const answer = await nodeRequest(`${origin}${WELL_KNOWN_PATH}`, { agent, headers: { accept: MANIFEST_MEDIA_TYPE } });
      agent.destroy();
      if (answer.statusCode !== 200) throw new Error(`${origin}${WELL_KNOWN_PATH} answered ${answer.statusCode}.`);
      const bytes = answer.bytes;
      if (mode === 'floor') return parseJsonBytes(bytes).tools.length;
      // The client's own cap on the document's size (`discovery.maxManifestSizeInBytes`, 8 MiB by default) is the reader's default too.
      if (mode === 'strict') return readJsonDocument(bytes).value.tools.length;
      // As the client reads a manifest: no warnings about unknown members, which it would not show.
      const result = parseManifest(bytes, { warnUnknownFields: false });
      if (!result.valid) throw new Error(`${origin}${WELL_KNOWN_PATH} is not a valid manifest: ${JSON.stringify(result.issues.slice(0, 3))}`);
      return result.manifest.tools.length;
    },
    close: async () => undefined,
  };
}

async function mcpDiscovery() {
  const { createMcpClient } = await import('../lib/mcp-client.js');
  const mcp = createMcpClient(`${origin}/mcp`);
  return {
    async run() {
      await mcp.connect();
      return (await mcp.client.listTools()).tools.length;
    },
    close: () => mcp.close(),
  };
}
