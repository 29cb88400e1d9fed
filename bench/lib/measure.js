// Timing helpers for the latency sections. Variants of one comparison run interleaved (each round
// runs every variant once, in a new random order) so that a burst of load from elsewhere on the machine slows every variant alike instead
// of skewing whichever happened to run at that moment. Because every round times each variant once,
// sample i of one variant and sample i of another are a pair: ratios are taken pair by pair, and
// their spread (p25–p75) says how much the machine's drift moved them.
import { performance } from 'node:perf_hooks';

/**
 * @typedef {object} Variant
 * @property {string} name Row label.
 * @property {() => Promise<unknown>} [setup] Untimed, before each iteration; its result is passed to `run` and `teardown`.
 * @property {(state: unknown) => Promise<unknown>} run The timed part.
 * @property {(state: unknown) => Promise<void>} [teardown] Untimed, after each iteration.
 * @property {(result: unknown) => void} [check] Throws when `run` produced a wrong answer (checked on every iteration, untimed).
 */

/**
 * @typedef {object} Summary
 * @property {string} name
 * @property {number} iterations Timed iterations.
 * @property {number} medianInMs
 * @property {number} p25InMs
 * @property {number} p75InMs
 * @property {number} p95InMs
 * @property {number} minInMs
 * @property {number} maxInMs
 * @property {number[]} samples Every timed iteration in round order (not written to results.json).
 * @property {number} [clientCpuMedianInMs] This process's CPU time (user + system) per iteration.
 * @property {number} [serverCpuMedianInMs] The server process's CPU time per iteration, when the section reads it.
 * @property {number[]} [cpuSamples] Client + server CPU per timed iteration, in round order (not written to results.json).
 */

/**
 * @typedef {object} Ratio
 * @property {number} median Median of the per-round ratios.
 * @property {number} p25
 * @property {number} p75
 * @property {number} rounds How many pairs it was taken over.
 * @property {string} [against] The baseline row.
 */

/**
 * Runs the variants interleaved: `warmupIterations` untimed rounds in the given order, then timed rounds until
 * `iterations` rounds are done or `maxTimeInMs` has passed (at least `minIterations` rounds). Beside
 * the wall time it records this process's CPU time (`process.cpuUsage`) and, with `serverCpuInMs`,
 * the server process's, around each timed part: CPU time moves far less than wall time when other
 * work shares the machine, so every wall ratio gets a CPU ratio beside it.
 * @param {Variant[]} variants
 * @param {{ warmupIterations: number, iterations: number, minIterations?: number, maxTimeInMs: number, serverCpuInMs?: () => number, random?: () => number }} options
 *   `random` orders each timed round (default `Math.random`; a test passes a fixed sequence).
 * @returns {Promise<Summary[]>}
 */
export async function compareVariants(variants, options) {
  const samples = variants.map(() => /** @type {number[]} */ ([]));
  const clientCpu = variants.map(() => /** @type {number[]} */ ([]));
  const serverCpu = variants.map(() => /** @type {number[]} */ ([]));
  const serverCpuInMs = options.serverCpuInMs ?? (() => 0);
  const once = async (variant, index, timed) => {
    const state = variant.setup ? await variant.setup() : undefined;
    const serverBefore = serverCpuInMs();
    const cpuBefore = process.cpuUsage();
    const startedAt = performance.now();
    const result = await variant.run(state);
    const elapsedInMs = performance.now() - startedAt;
    const cpu = process.cpuUsage(cpuBefore);
    const serverAfter = serverCpuInMs();
    variant.check?.(result);
    if (variant.teardown) await variant.teardown(state);
    if (!timed) return;
    samples[index].push(elapsedInMs);
    clientCpu[index].push((cpu.user + cpu.system) / 1000);
    serverCpu[index].push(serverAfter - serverBefore);
  };
  for (let round = 0; round < options.warmupIterations; round++) {
    for (const [index, variant] of variants.entries()) await once(variant, index, false);
  }
  const deadline = performance.now() + options.maxTimeInMs;
  const minIterations = options.minIterations ?? Math.min(30, options.iterations);
  for (let round = 0; round < options.iterations; round++) {
    if (round >= minIterations && performance.now() > deadline) break;
    // Each round runs the variants in a new random order, and the event loop drains between them, so
    // every variant follows every other alike and none always pays for the deferred work (garbage to
    // collect, sockets closing, timers) of the same predecessor. Rotating the first variant kept the
    // cyclic order fixed: Payments' known discovery always followed an MCP mode, the heaviest variant,
    // and the floor always followed aicap's cold discovery, a light one.
    for (const index of shuffledOrder(variants.length, options.random ?? Math.random)) {
      await new Promise((resolve) => setImmediate(resolve));
      await once(variants[index], index, true);
    }
  }
  return variants.map((variant, index) => ({
    ...summarize(variant.name, samples[index]),
    clientCpuMedianInMs: round(medianOf(clientCpu[index])),
    ...(options.serverCpuInMs ? { serverCpuMedianInMs: round(medianOf(serverCpu[index])) } : {}),
    cpuSamples: clientCpu[index].map((value, round) => value + serverCpu[index][round]),
  }));
}

/**
 * The indexes `0 … count - 1` in a uniformly random order (Fisher–Yates).
 * @param {number} count
 * @param {() => number} random A number in [0, 1), as `Math.random` gives.
 * @returns {number[]}
 */
export function shuffledOrder(count, random) {
  const order = Array.from({ length: count }, (_, index) => index);
  for (let last = count - 1; last > 0; last--) {
    const pick = Math.floor(random() * (last + 1));
    [order[last], order[pick]] = [order[pick], order[last]];
  }
  return order;
}

/**
 * @param {string} name
 * @param {number[]} values Milliseconds, in round order.
 * @returns {Summary}
 */
export function summarize(name, values) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    name,
    iterations: sorted.length,
    medianInMs: round(quantileOfSorted(sorted, 0.5)),
    p25InMs: round(quantileOfSorted(sorted, 0.25)),
    p75InMs: round(quantileOfSorted(sorted, 0.75)),
    p95InMs: round(quantileOfSorted(sorted, 0.95)),
    minInMs: round(sorted[0]),
    maxInMs: round(sorted[sorted.length - 1]),
    samples: values,
  };
}

/**
 * The ratio `numerator ÷ denominator` pair by pair (same round), summarised as median and p25–p75.
 * @param {number[]} numerator
 * @param {number[]} denominator
 * @param {string} [against]
 * @returns {Ratio}
 */
export function pairedRatio(numerator, denominator, against) {
  const count = Math.min(numerator.length, denominator.length);
  if (count === 0) throw new Error('A paired ratio needs at least one round of both variants.');
  const ratios = [];
  for (let index = 0; index < count; index++) ratios.push(numerator[index] / denominator[index]);
  ratios.sort((a, b) => a - b);
  return {
    median: round(quantileOfSorted(ratios, 0.5), 3),
    p25: round(quantileOfSorted(ratios, 0.25), 3),
    p75: round(quantileOfSorted(ratios, 0.75), 3),
    rounds: count,
    ...(against === undefined ? {} : { against }),
  };
}

/** The row with the lowest median time: "the fastest wins" when a baseline has several modes. */
export function fastestOf(rows) {
  return rows.reduce((best, row) => (row.medianInMs < best.medianInMs ? row : best));
}

/**
 * The usual comparison of a latency section whose rows are [aicap, floor, ...MCP modes]: aicap ÷
 * floor and the fastest MCP mode ÷ aicap, pair by pair, with the rows as results.json keeps them.
 */
export function againstFloorAndMcp(rows) {
  const [aicap, floor, ...mcp] = rows;
  const fastestMcp = fastestOf(mcp);
  return {
    rows: withoutSamples(rows),
    versusFloor: pairedRatio(aicap.samples, floor.samples, floor.name),
    versusMcp: pairedRatio(fastestMcp.samples, aicap.samples, fastestMcp.name),
    ...cpuRatios(aicap, floor, fastestMcp),
    aicapMedianInMs: aicap.medianInMs,
  };
}

/**
 * What the client's own work costs over the floor, µs of client CPU per operation (difference of
 * medians), measured in rounds of these two variants alone. Run among the MCP variants, the figure
 * also carried the garbage and cold caches MCP's rounds leave behind (about three times the
 * in-process cost), charged to whichever variant ran next; the MCP ratios keep their own rounds.
 *
 * With `steadyStateWarmupIterations`, the window right after the short warm-up is kept as
 * `firstCalls`, and `microseconds` is measured again after that many more warm-up rounds. The floor
 * (a bare undici request) runs code every section of the bench has already made hot, while the
 * client's path is still being optimised by V8 for its first few thousand operations: measured early,
 * the difference is mostly that tiering, not what an operation costs once both sides are warm.
 * @param {Variant} aicap
 * @param {Variant} floor
 * @param {{ warmupIterations: number, iterations: number, minIterations?: number, maxTimeInMs: number, steadyStateWarmupIterations?: number }} options
 * @param {string} against
 */
export async function clientOverFloor(aicap, floor, options, against) {
  const { steadyStateWarmupIterations, ...window } = options;
  const early = await compareVariants([aicap, floor], window);
  if (!steadyStateWarmupIterations) return { rows: withoutSamples(early), microseconds: { median: microsecondsOver(early), against } };
  const steady = await compareVariants([aicap, floor], { ...window, warmupIterations: steadyStateWarmupIterations });
  return {
    rows: withoutSamples(steady),
    microseconds: { median: microsecondsOver(steady), against: `${against}; steady state: measured after ${steadyStateWarmupIterations} more warm-up rounds` },
    firstCalls: { median: microsecondsOver(early), against: `${against}; the window right after ${window.warmupIterations} warm-up rounds, while V8 still optimises the client's path` },
  };
}

/** The first row's client CPU median over the second's, in whole µs. */
function microsecondsOver([aicap, floor]) {
  return Math.round((aicap.clientCpuMedianInMs - floor.clientCpuMedianInMs) * 1000);
}

/** The same two ratios on client + server CPU time, when the rows carry it. */
export function cpuRatios(aicap, floor, mcp) {
  if (!aicap.cpuSamples) return {};
  return {
    ...(floor?.cpuSamples ? { versusFloorCpu: pairedRatio(aicap.cpuSamples, floor.cpuSamples, `${floor.name}, CPU`) } : {}),
    ...(mcp?.cpuSamples ? { versusMcpCpu: pairedRatio(mcp.cpuSamples, aicap.cpuSamples, `${mcp.name}, CPU`) } : {}),
  };
}

/** A value's spread over its samples, in the shape of a ratio (for targets that are a time, not a ratio). */
export function spreadOf(values, against) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: round(quantileOfSorted(sorted, 0.5), 3),
    p25: round(quantileOfSorted(sorted, 0.25), 3),
    p75: round(quantileOfSorted(sorted, 0.75), 3),
    rounds: sorted.length,
    ...(against === undefined ? {} : { against }),
  };
}

/** Rows without their raw samples, for results.json. */
export function withoutSamples(rows) {
  return rows.map((row) => {
    const copy = { ...row };
    delete copy.samples;
    delete copy.cpuSamples;
    return copy;
  });
}

/** The median of any list of numbers. */
export function medianOf(values) {
  return quantileOfSorted(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

/** Linear interpolation between the two nearest ranks (the usual "type 7" quantile). */
export function quantileOfSorted(sorted, fraction) {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * fraction;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - lower);
}

/** Rounds to microseconds by default: finer digits are noise on a shared machine. */
export function round(value, digits = 3) {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
