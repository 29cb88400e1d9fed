// Where a cold discovery's own work goes: the checks it runs on the manifest bytes, one by one, in
// this process on warm code, each round on a fresh copy of the bytes as served (so no string carries
// a hash or a decoding from an earlier round). The phases are the client's own functions in the
// order `readManifestOnce` runs them; their sum is the least the client can add to the floor while
// it keeps every check, which bounds what the discovery targets can reach (see `ceilingsOf`).
import { performance } from 'node:perf_hooks';
import { validateManifest } from 'aicap';
import { scanManifest } from '../../dist/manifest/scan-manifest.js';
import { digestParsedBody } from '../../dist/manifest/digest-manifest.js';
import { readJsonDocument } from '../../dist/manifest/parse-json-document.js';
import { round, spreadOf } from '../lib/measure.js';

/** The phases, in the order a cold discovery runs them, with what each row says. */
const PHASES = [
  { key: 'decodeAndParseInMs', label: 'decode + `JSON.parse` (what the floor does too)' },
  { key: 'readerInMs', label: 'strict read beyond `JSON.parse` (depth, duplicate and forbidden keys, numbers, canonical form)' },
  { key: 'validationInMs', label: 'validation (JSON Schema and the semantic checks)' },
  { key: 'scanInMs', label: 'poisoning scan' },
  { key: 'digestInMs', label: 'digest' },
];

/**
 * @param {Uint8Array} bytes The manifest as served (identity coding).
 * @param {{ warmupIterations: number, iterations: number, minIterations?: number, maxTimeInMs: number }} iterations Untimed rounds, then timed ones until `iterations` are done or `maxTimeInMs` has passed (at least `minIterations`, default 5).
 * @returns {{ phases: Array<{ key: string, label: string, median: number, p25: number, p75: number }>, checksInMs: { median: number, p25: number, p75: number, rounds: number }, rounds: number }}
 */
export function benchmarkChecks(bytes, iterations) {
  const samples = Object.fromEntries([...PHASES.map((phase) => phase.key), 'checksInMs'].map((key) => [key, []]));
  const once = (timed) => {
    const copy = () => Buffer.from(bytes);
    const text = copy();
    let startedAt = performance.now();
    JSON.parse(text.toString('utf8'));
    const decodeAndParseInMs = performance.now() - startedAt;
    const body = copy();
    startedAt = performance.now();
    const reading = readJsonDocument(body, { maxSizeInBytes: body.byteLength });
    const readInMs = performance.now() - startedAt;
    startedAt = performance.now();
    const validation = validateManifest(reading.value, { warnUnknownFields: false });
    const validationInMs = performance.now() - startedAt;
    if (!validation.valid) throw new Error(`The manifest measured is not valid: ${validation.issues[0]?.pointer} ${validation.issues[0]?.message}`);
    startedAt = performance.now();
    scanManifest(reading.value, { foreignToolIds: [] });
    const scanInMs = performance.now() - startedAt;
    startedAt = performance.now();
    digestParsedBody(body, reading);
    const digestInMs = performance.now() - startedAt;
    if (!timed) return;
    // The reader's own work: the strict read less the decoding and parsing the floor pays as well
    // (measured on its own copy in the same round; a negative difference is noise, counted as none).
    const readerInMs = Math.max(0, readInMs - decodeAndParseInMs);
    const measured = { decodeAndParseInMs, readerInMs, validationInMs, scanInMs, digestInMs, checksInMs: readerInMs + validationInMs + scanInMs + digestInMs };
    for (const [key, value] of Object.entries(measured)) samples[key].push(value);
  };
  for (let index = 0; index < iterations.warmupIterations; index++) once(false);
  const deadline = performance.now() + iterations.maxTimeInMs;
  const minIterations = iterations.minIterations ?? Math.min(5, iterations.iterations);
  for (let index = 0; index < iterations.iterations && (index < minIterations || performance.now() < deadline); index++) once(true);
  return {
    rounds: samples.checksInMs.length,
    phases: PHASES.map((phase) => ({ key: phase.key, label: phase.label, ...spreadOf(samples[phase.key]) })),
    checksInMs: spreadOf(samples.checksInMs),
  };
}

/**
 * What the discovery ratios can reach at best while every check runs: the floor plus the checks'
 * median is the fastest a cold discovery can be, so `fastest MCP ÷ (floor + checks)` is the most
 * the versus-MCP ratio can be, and `(floor + checks) ÷ floor` the least the versus-floor ratio can
 * be. Ratios of medians (the checks are measured in another loop than the network figures), with
 * warm code: a lower bound on the checks, so an upper bound on what the targets can reach.
 * @param {{ rows: Array<{ medianInMs: number }>, versusMcp: { against: string } }} cold The cold discovery comparison ([aicap, floor, ...MCP]).
 * @param {{ checksInMs: { median: number } }} checks
 */
export function ceilingsOf(cold, checks) {
  const [, floor, ...mcp] = cold.rows;
  const fastestMcp = mcp.find((row) => row.name === cold.versusMcp.against) ?? mcp[0];
  const least = floor.medianInMs + checks.checksInMs.median;
  return {
    leastInMs: round(least),
    versusFloorAtLeast: { median: round(least / floor.medianInMs), against: `${floor.name}, with the checks' median added` },
    versusMcpAtMost: { median: round(fastestMcp.medianInMs / least), against: `${fastestMcp.name} ÷ (floor + checks)` },
  };
}
