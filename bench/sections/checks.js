// Where a cold discovery's own work goes: the checks it runs on the manifest bytes, one by one, in
// this process on warm code, each round on a fresh copy of the bytes as served (so no string carries
// a hash or a decoding from an earlier round). The phases are the client's own functions in the
// order `readManifestOnce` runs them. Their sum over the phases a discovery runs with the client's
// default options is the least the client can add to the floor while it keeps those checks, which
// bounds what the discovery targets can reach (see `ceilingsOf`). The poisoning scan is measured all
// the same, as its own figure: by default (`trust.scan: 'on-export'`) it runs on export, not in discovery.
import { performance } from 'node:perf_hooks';
import { validateManifest } from 'aicap';
import { isEagerScan } from '../../dist/client/discover/read-manifest.js';
import { scanManifest } from '../../dist/manifest/scan-manifest.js';
import { digestParsedBody } from '../../dist/manifest/digest-manifest.js';
import { readJsonDocument } from '../../dist/manifest/parse-json-document.js';
import { round, spreadOf } from '../lib/measure.js';
import { parseJsonBytes } from '../lib/parse-json-bytes.js';

/** Whether a discovery with the client's default options runs the poisoning scan, as the client decides it. */
export const DEFAULT_DISCOVERY_SCANS = isEagerScan({ options: {} });

/** The phases, in the order a cold discovery runs them, with what each row says and whether it is in the checks' total: work a default discovery adds to the floor. */
const PHASES = [
  { key: 'decodeAndParseInMs', label: 'one-byte decoding + `JSON.parse` (what the floor does too)', inChecks: false },
  { key: 'readerInMs', label: 'strict read beyond `JSON.parse` (depth, duplicate and forbidden keys, numbers, canonical form)', inChecks: true },
  { key: 'validationInMs', label: 'validation (JSON Schema and the semantic checks)', inChecks: true },
  {
    key: 'scanInMs',
    label: DEFAULT_DISCOVERY_SCANS ? 'poisoning scan' : "poisoning scan (on export by default, `trust.scan: 'on-export'`: not in the checks' total)",
    inChecks: DEFAULT_DISCOVERY_SCANS,
  },
  { key: 'digestInMs', label: 'digest', inChecks: true },
];

/**
 * The checks' time in one round: the phases a discovery with the client's default options runs,
 * beyond the decoding and parsing the floor pays as well.
 * @param {Record<string, number>} phasesInMs One round's time of each phase, by key.
 */
export function discoveryChecksInMs(phasesInMs) {
  return PHASES.filter((phase) => phase.inChecks).reduce((sum, phase) => sum + phasesInMs[phase.key], 0);
}

/**
 * @param {Uint8Array} bytes The manifest as served (identity coding).
 * @param {{ warmupIterations: number, iterations: number, minIterations?: number, maxTimeInMs: number }} iterations Untimed rounds, then timed ones until `iterations` are done or `maxTimeInMs` has passed (at least `minIterations`, default 5).
 * @returns {{ phases: Array<{ key: string, label: string, inChecks: boolean, median: number, p25: number, p75: number }>, checksInMs: { median: number, p25: number, p75: number, rounds: number }, rounds: number }}
 */
export function benchmarkChecks(bytes, iterations) {
  const samples = Object.fromEntries([...PHASES.map((phase) => phase.key), 'checksInMs'].map((key) => [key, []]));
  const once = (timed) => {
    const copy = () => Buffer.from(bytes);
    const text = copy();
    let startedAt = performance.now();
    parseJsonBytes(text);
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
    const phasesInMs = { decodeAndParseInMs, readerInMs, validationInMs, scanInMs, digestInMs };
    const measured = { ...phasesInMs, checksInMs: discoveryChecksInMs(phasesInMs) };
    for (const [key, value] of Object.entries(measured)) samples[key].push(value);
  };
  for (let index = 0; index < iterations.warmupIterations; index++) once(false);
  const deadline = performance.now() + iterations.maxTimeInMs;
  const minIterations = iterations.minIterations ?? Math.min(5, iterations.iterations);
  for (let index = 0; index < iterations.iterations && (index < minIterations || performance.now() < deadline); index++) once(true);
  return {
    rounds: samples.checksInMs.length,
    phases: PHASES.map((phase) => ({ key: phase.key, label: phase.label, inChecks: phase.inChecks, ...spreadOf(samples[phase.key]) })),
    checksInMs: spreadOf(samples.checksInMs),
  };
}

/**
 * What the discovery ratios can reach at best while the client keeps every check a default discovery
 * runs: the floor plus the checks' median is the fastest a cold discovery can be, so `fastest MCP ÷ (floor + checks)` is the most
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
