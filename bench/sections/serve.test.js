// The aicap ÷ static ratio of each framework: its rounds run aicap, static, static, aicap, and the ratio
// is the two aicap bursts' sum over the two static ones', so that a load drifting during a round weighs on both alike.
import { describe, expect, it } from 'vitest';
import { FRAMEWORKS, staticPairRatios } from './serve.js';

const targets = FRAMEWORKS.flatMap((framework) => [{ set: `aicap-${framework}` }, { set: `static-${framework}` }]);

/** A burst that answers from a script: requests/s by call, with every answer a 200 unless told. */
function scriptedBurst(rates, { errorsOn = new Set() } = {}) {
  const calls = [];
  const burst = async (target) => {
    const index = calls.length;
    calls.push(target.set);
    const average = rates(target.set, index);
    return { requests: { average, total: average }, statusCodeStats: { 200: { count: average } }, errors: errorsOn.has(index) ? 1 : 0, timeouts: 0 };
  };
  return { burst, calls };
}

describe('staticPairRatios', () => {
  it('runs aicap, static, static, aicap per framework, each round starting with the next framework', async () => {
    const { burst, calls } = scriptedBurst(() => 100);
    await staticPairRatios(targets, burst, 2);
    expect(calls.slice(0, 4)).toEqual(['aicap-express', 'static-express', 'static-express', 'aicap-express']);
    expect(calls.slice(16, 20)).toEqual(['aicap-fastify', 'static-fastify', 'static-fastify', 'aicap-fastify']);
    expect(calls.slice(28, 32)).toEqual(['aicap-express', 'static-express', 'static-express', 'aicap-express']);
    expect(calls).toHaveLength(2 * FRAMEWORKS.length * 4);
  });

  it('cancels a load that drifts steadily during a round, which a single pair would read as a difference', async () => {
    // Both routes serve 1,000 requests/s less the drift: 10 fewer each burst since the start.
    const { burst } = scriptedBurst((_set, index) => 1000 - 10 * index);
    const ratios = await staticPairRatios(targets, burst, 3);
    for (const entry of ratios) expect(entry.ratio.median).toBe(1);
    expect(ratios.map((entry) => entry.ratio.rounds)).toEqual([3, 3, 3, 3]);
  });

  it('gives each framework its own ratio, and counts the errors of its bursts', async () => {
    const { burst } = scriptedBurst((set) => (set === 'aicap-hono' ? 90 : 100), { errorsOn: new Set([0]) });
    const ratios = Object.fromEntries((await staticPairRatios(targets, burst, 1)).map((entry) => [entry.framework, entry]));
    expect(ratios.hono.ratio.median).toBe(0.9);
    expect(ratios.node.ratio.median).toBe(1);
    expect(ratios.express.errors).toBe(1);
    expect(ratios.node.errors).toBe(0);
    expect(ratios.node.okShare).toBe(1);
  });
});
