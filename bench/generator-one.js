// One generation in a fresh process, so that peak RSS belongs to this description alone.
// Usage: node bench/generator-one.js <file> [--lenient] [--ref-root <dir>]; prints one JSON line.
import { generateManifest } from '../dist/openapi/index.js';

const [input, ...flags] = process.argv.slice(2);
const refRootIndex = flags.indexOf('--ref-root');
const started = performance.now();
const cpuBefore = process.cpuUsage();
let line;
try {
  const { manifest, warnings, statistics } = await generateManifest({
    input,
    strict: !flags.includes('--lenient'),
    ...(refRootIndex === -1 ? {} : { refRoot: flags[refRootIndex + 1] }),
  });
  const elapsedInMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  line = {
    ok: true,
    operations: statistics.operations,
    tools: statistics.tools,
    resources: statistics.resources,
    documents: statistics.documents,
    warnings: warnings.length,
    elapsedInMs,
    cpuInMs: (cpu.user + cpu.system) / 1000,
    manifestBytes: Buffer.byteLength(JSON.stringify(manifest)),
  };
} catch (error) {
  line = { ok: false, code: error.code ?? 'CRASH', message: String(error.message).split('\n')[0].slice(0, 160), elapsedInMs: performance.now() - started };
}
line.peakRssInMiB = process.resourceUsage().maxRSS / 1024;
process.stdout.write(`${JSON.stringify(line)}\n`);
