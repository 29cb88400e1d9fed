// One cold discovery in this fresh process, for the scale section's whole-process figures. Prints one
// JSON line: the discovery's wall time, the process's peak RSS (Node itself included) and the RSS
// before discovering (what Node and the loaded modules take alone).
// Usage: node bench/sections/discover-once.js <origin>
import { performance } from 'node:perf_hooks';
import { createClient } from 'aicap/client';

const origin = process.argv[2];
if (!origin) throw new Error('Usage: node bench/sections/discover-once.js <origin>');
const baselineRssInMiB = process.memoryUsage().rss / 1_048_576;
const client = createClient();
const startedAt = performance.now();
const service = await client.discover(origin);
const discoveryInMs = performance.now() - startedAt;
if (service.manifest.tools.length === 0) throw new Error(`${origin} has no tools.`);
await client.close();
process.stdout.write(`${JSON.stringify({ discoveryInMs, peakRssInMiB: process.resourceUsage().maxRSS / 1024, baselineRssInMiB, tools: service.manifest.tools.length })}\n`);
