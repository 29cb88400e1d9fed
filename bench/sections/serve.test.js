// The aicap ÷ static ratio of each framework: its rounds run aicap, static, static, aicap, and the ratio
// is the two aicap bursts' sum over the two static ones', so that a load drifting during a round weighs on both alike.
// The A/A control (a second process of Fastify's static route) runs in the same rounds.
import { describe, expect, it } from 'vitest';
import { FRAMEWORKS, STATIC_PAIRS, staticPairRatios } from './serve.js';

const targets = [...FRAMEWORKS.flatMap((framework) => [{ set: `aicap-${framework}` }, { set: `static-${framework}` }]), { set: 'static-fastify-control' }];

/** A burst that answers from a script: requests/s by call, with every answer a 200 unless told, and the server's CPU time when given. */
function scriptedBurst(rates, { errorsOn = new Set(), cpuInMs } = {}) {
  const calls = [];
  const burst = async (target) => {
    const index = calls.length;
    calls.push(target.set);
    const average = rates(target.set, index);
    return {
      requests: { average, total: average },
      statusCodeStats: { 200: { count: average } },
      errors: errorsOn.has(index) ? 1 : 0,
      timeouts: 0,
      ...(cpuInMs ? { serverCpuInMs: cpuInMs(target.set, index) } : {}),
    };
  };
  return { burst, calls };
}

describe('staticPairRatios', () => {
  it('runs aicap, static, static, aicap per framework and control, static, static, control, each round starting with the next pair', async () => {
    const { burst, calls } = scriptedBurst(() => 100);
    await staticPairRatios(targets, burst, 2);
    const perRound = STATIC_PAIRS.length * 4;
    expect(STATIC_PAIRS.map((pair) => pair.key)).toEqual([...FRAMEWORKS, 'control']);
    expect(calls.slice(0, 4)).toEqual(['aicap-express', 'static-express', 'static-express', 'aicap-express']);
    expect(calls.slice(perRound - 4, perRound)).toEqual(['static-fastify-control', 'static-fastify', 'static-fastify', 'static-fastify-control']);
    expect(calls.slice(perRound, perRound + 4)).toEqual(['aicap-fastify', 'static-fastify', 'static-fastify', 'aicap-fastify']);
    expect(calls.slice(2 * perRound - 4)).toEqual(['aicap-express', 'static-express', 'static-express', 'aicap-express']);
    expect(calls).toHaveLength(2 * perRound);
  });

  it('cancels a load that drifts steadily during a round, which a single pair would read as a difference', async () => {
    // Both routes serve 1,000 requests/s less the drift: 10 fewer each burst since the start.
    const { burst } = scriptedBurst((_set, index) => 1000 - 10 * index);
    const ratios = await staticPairRatios(targets, burst, 3);
    for (const entry of ratios) expect(entry.ratio.median).toBe(1);
    expect(ratios.map((entry) => entry.ratio.rounds)).toEqual([3, 3, 3, 3, 3]);
  });

  it('gives each pair its own ratio, and counts the errors of its bursts', async () => {
    const { burst } = scriptedBurst((set) => ({ 'aicap-hono': 90, 'static-fastify-control': 105 })[set] ?? 100, { errorsOn: new Set([0]) });
    const ratios = Object.fromEntries((await staticPairRatios(targets, burst, 1)).map((entry) => [entry.key, entry]));
    expect(ratios.hono.ratio.median).toBe(0.9);
    expect(ratios.node.ratio.median).toBe(1);
    expect(ratios.control.ratio.median).toBe(1.05);
    expect(ratios.control.ratio.against).toMatch(/^static route, same bytes and ETag work, Fastify, rounds of control, static, static, control$/);
    expect(ratios.express.errors).toBe(1);
    expect(ratios.node.errors).toBe(0);
    expect(ratios.node.okShare).toBe(1);
  });

  it('gives server CPU per request beside requests/s when the bursts carry it, and none when one does not', async () => {
    // Hono's aicap route serves as many requests as its static route but spends 25 % more CPU on each:
    // 2 ms per burst of 100 requests (20 µs each) against 1.6 ms (16 µs).
    const { burst } = scriptedBurst(() => 100, { cpuInMs: (set) => (set === 'aicap-hono' ? 2 : 1.6) });
    const ratios = Object.fromEntries((await staticPairRatios(targets, burst, 2)).map((entry) => [entry.key, entry]));
    expect(ratios.hono.ratio.median).toBe(1);
    expect(ratios.hono.cpuRatio.median).toBe(0.8);
    expect(ratios.hono.cpuRatio.against).toMatch(/, server CPU per request$/);
    expect(ratios.node.cpuRatio.median).toBe(1);
    const { burst: unread } = scriptedBurst(() => 100, { cpuInMs: (_set, index) => (index === 0 ? undefined : 1) });
    const without = await staticPairRatios(targets, unread, 1);
    expect(without.find((entry) => entry.key === 'express').cpuRatio).toBeUndefined();
    expect(without.find((entry) => entry.key === 'node').cpuRatio.median).toBe(1);
    // The same when the burst without a reading is on the static side (the second burst of the round).
    const { burst: unreadStatic } = scriptedBurst(() => 100, { cpuInMs: (_set, index) => (index === 1 ? undefined : 1) });
    const withoutStatic = await staticPairRatios(targets, unreadStatic, 1);
    expect(withoutStatic.find((entry) => entry.key === 'express').cpuRatio).toBeUndefined();
    expect(withoutStatic.find((entry) => entry.key === 'fastify').cpuRatio.median).toBe(1);
  });
});
