// Timing helpers for the latency sections. Variants of one comparison run interleaved (A, B, C, A,
// B, C, …) so that a burst of load from elsewhere on the machine slows every variant alike instead
// of skewing whichever happened to run at that moment.
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
 * @property {number} p95InMs
 * @property {number} meanInMs
 * @property {number} minInMs
 * @property {number} maxInMs
 */

/**
 * Runs the variants round-robin: `warmupIterations` untimed rounds, then timed rounds until
 * `iterations` rounds are done or `maxTimeInMs` has passed (at least `minIterations` rounds).
 * @param {Variant[]} variants
 * @param {{ warmupIterations: number, iterations: number, minIterations?: number, maxTimeInMs: number }} options
 * @returns {Promise<Summary[]>}
 */
export async function compareVariants(variants, options) {
  const samples = variants.map(() => /** @type {number[]} */ ([]));
  const once = async (variant, index, timed) => {
    const state = variant.setup ? await variant.setup() : undefined;
    const startedAt = performance.now();
    const result = await variant.run(state);
    const elapsedInMs = performance.now() - startedAt;
    variant.check?.(result);
    if (variant.teardown) await variant.teardown(state);
    if (timed) samples[index].push(elapsedInMs);
  };
  for (let round = 0; round < options.warmupIterations; round++) {
    for (const [index, variant] of variants.entries()) await once(variant, index, false);
  }
  const deadline = performance.now() + options.maxTimeInMs;
  const minIterations = options.minIterations ?? Math.min(30, options.iterations);
  for (let round = 0; round < options.iterations; round++) {
    if (round >= minIterations && performance.now() > deadline) break;
    // The starting variant rotates each round, and the event loop drains between variants, so no
    // variant always pays for the deferred work (sockets, timers, GC) its predecessor left behind.
    for (let offset = 0; offset < variants.length; offset++) {
      const index = (round + offset) % variants.length;
      await new Promise((resolve) => setImmediate(resolve));
      await once(variants[index], index, true);
    }
  }
  return variants.map((variant, index) => summarize(variant.name, samples[index]));
}

/**
 * @param {string} name
 * @param {number[]} values Milliseconds.
 * @returns {Summary}
 */
export function summarize(name, values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (fraction) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
  return {
    name,
    iterations: sorted.length,
    medianInMs: round(medianOf(sorted)),
    p95InMs: round(at(0.95)),
    meanInMs: round(sorted.reduce((sum, value) => sum + value, 0) / sorted.length),
    minInMs: round(sorted[0]),
    maxInMs: round(sorted[sorted.length - 1]),
  };
}

/** The median of any list of numbers. */
export function medianOf(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Rounds to microseconds: finer digits are noise on a shared machine. */
export function round(value, digits = 3) {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
