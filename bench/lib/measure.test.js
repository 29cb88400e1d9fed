import { describe, expect, it } from 'vitest';
import { performance } from 'node:perf_hooks';
import { againstFloorAndMcp, clientOverFloor, compareVariants, fastestOf, medianOf, pairedRatio, shuffledOrder, summarize } from './measure.js';
import { assessTargets } from './render-results.js';
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { isQuietEnough, otherCpuShare, readCpuTicks } from './environment.js';

describe('summarize', () => {
  it.each([
    ['one sample', [3], { medianInMs: 3, p25InMs: 3, p75InMs: 3, p95InMs: 3, minInMs: 3, maxInMs: 3 }],
    ['an even count (median between the middle two)', [4, 1, 3, 2], { medianInMs: 2.5, p25InMs: 1.75, p75InMs: 3.25, minInMs: 1, maxInMs: 4 }],
    ['1 to 101 (quartiles at ranks 26 and 76)', Array.from({ length: 101 }, (_, index) => 101 - index), { medianInMs: 51, p25InMs: 26, p75InMs: 76, p95InMs: 96, minInMs: 1, maxInMs: 101 }],
    ['microsecond rounding', [0.12341, 0.12369], { medianInMs: 0.124, minInMs: 0.123, maxInMs: 0.124 }],
  ])('computes the figures of %s', (_label, values, expected) => {
    expect(summarize('row', values)).toMatchObject({ name: 'row', iterations: values.length, samples: values, ...expected });
  });
});

describe('pairedRatio', () => {
  it('divides round by round, so a slow round slows both sides alike', () => {
    // Round 3 is five times slower for both: its ratio is still 2.
    expect(pairedRatio([2, 4, 10, 2], [1, 2, 5, 1], 'base')).toEqual({ median: 2, p25: 2, p75: 2, rounds: 4, against: 'base' });
  });

  it('reports the spread of the per-round ratios', () => {
    expect(pairedRatio([1, 2, 3, 4, 5], [1, 1, 1, 1, 1])).toEqual({ median: 3, p25: 2, p75: 4, rounds: 5 });
  });

  it('refuses an empty comparison instead of answering NaN', () => {
    expect(() => pairedRatio([], [1])).toThrow('at least one round');
  });
});

describe('againstFloorAndMcp', () => {
  it('divides aicap by the floor and the fastest MCP mode by aicap, round by round, and drops the raw samples', () => {
    const rows = [summarize('aicap', [2, 4]), summarize('floor', [1, 2]), summarize('mcp slow', [9, 9]), summarize('mcp fast', [6, 8])];
    const result = againstFloorAndMcp(rows);
    expect(result.versusFloor).toMatchObject({ median: 2, against: 'floor' });
    expect(result.versusMcp).toMatchObject({ median: 2.5, against: 'mcp fast' });
    expect(result.rows.every((row) => !('samples' in row))).toBe(true);
  });
});

describe('clientOverFloor', () => {
  // Reading the CPU time costs system time too: count both, as the measurement does.
  const cpuInMicroseconds = () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  };
  const burn = (milliseconds) => {
    const until = cpuInMicroseconds() + milliseconds * 1000;
    for (let spins = 0; spins < 1e9 && cpuInMicroseconds() < until; spins++);
  };

  it('gives the client CPU of the first variant over the second in µs, from rounds of the two alone', async () => {
    const ran = [];
    const { rows, microseconds } = await clientOverFloor(
      { name: 'aicap', run: () => (ran.push('aicap'), burn(3)) },
      { name: 'floor', run: () => (ran.push('floor'), burn(1)) },
      { warmupIterations: 1, iterations: 9, maxTimeInMs: 10_000 },
      'floor',
    );
    expect(new Set(ran)).toEqual(new Set(['aicap', 'floor']));
    expect(rows.map((row) => row.name)).toEqual(['aicap', 'floor']);
    expect(rows[0]).not.toHaveProperty('samples');
    expect(microseconds.against).toBe('floor');
    // 3 ms against 1 ms of busy CPU: about 2000 µs, whatever else the machine is doing.
    expect(microseconds.median).toBeGreaterThan(1500);
    expect(microseconds.median).toBeLessThan(4000);
  });

  it('measures the steady state after more warm-up rounds and keeps the early window as firstCalls', async () => {
    // The client variant gets cheaper with use, as V8's optimisation makes it: 4 ms for its first 12
    // runs, 2 ms after. The early window sees the expensive runs, the steady one only the cheap ones.
    let clientRuns = 0;
    const result = await clientOverFloor(
      { name: 'aicap', run: () => burn(clientRuns++ < 12 ? 4 : 2) },
      { name: 'floor', run: () => burn(1) },
      { warmupIterations: 1, iterations: 7, maxTimeInMs: 10_000, steadyStateWarmupIterations: 6 },
      'floor',
    );
    expect(result.firstCalls.median).toBeGreaterThan(2500);
    expect(result.microseconds.median).toBeGreaterThan(600);
    expect(result.microseconds.median).toBeLessThan(2000);
    expect(result.microseconds.against).toMatch(/steady state: measured after 6 more warm-up rounds/);
    expect(result.firstCalls.against).toMatch(/right after 1 warm-up rounds/);
  });
});

describe('fastestOf', () => {
  it('picks the lowest median, whatever the order', () => {
    expect(
      fastestOf([
        { name: 'a', medianInMs: 3 },
        { name: 'b', medianInMs: 1 },
        { name: 'c', medianInMs: 2 },
      ]).name,
    ).toBe('b');
  });
});

describe('medianOf', () => {
  it('does not reorder its input', () => {
    const values = [3, 1, 2];
    expect(medianOf(values)).toBe(2);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe('compareVariants', () => {
  it('runs the variants interleaved, each timed round in the order the random source shuffles, warm-up untimed, setup and teardown around each timed run', async () => {
    const events = [];
    const variant = (name) => ({
      name,
      setup: async () => events.push(`${name}:setup`),
      run: async () => events.push(`${name}:run`),
      teardown: async () => void events.push(`${name}:teardown`),
    });
    // Each round takes two numbers (Fisher–Yates fills the last slot, then the middle one):
    // 0.99, 0.99 keeps a b c; 0, 0.99 gives c b a; 0, 0 gives b c a.
    const sequence = [0.99, 0.99, 0, 0.99, 0, 0];
    const random = () => sequence.shift();
    const rows = await compareVariants([variant('a'), variant('b'), variant('c')], { warmupIterations: 1, iterations: 3, maxTimeInMs: 60_000, random });
    expect(rows.map((row) => [row.name, row.iterations])).toEqual([
      ['a', 3],
      ['b', 3],
      ['c', 3],
    ]);
    // Warm-up a b c in order, then a b c; c b a; b c a.
    expect(events.filter((event) => event.endsWith(':run'))).toEqual(['a:run', 'b:run', 'c:run', 'a:run', 'b:run', 'c:run', 'c:run', 'b:run', 'a:run', 'b:run', 'c:run', 'a:run']);
    expect(events.slice(0, 3)).toEqual(['a:setup', 'a:run', 'a:teardown']);
    expect(sequence).toEqual([]);
  });

  it('gives every variant each other variant as its predecessor when shuffled by Math.random', () => {
    const predecessors = new Map([0, 1, 2, 3].map((index) => [index, new Set()]));
    for (let round = 0; round < 200; round++) {
      const order = shuffledOrder(4, Math.random);
      expect([...order].sort()).toEqual([0, 1, 2, 3]);
      for (let position = 1; position < order.length; position++) predecessors.get(order[position]).add(order[position - 1]);
    }
    // With a fixed cyclic order each variant would have one predecessor; 200 shuffles miss one with odds below 1e-20.
    for (const seen of predecessors.values()) expect(seen.size).toBe(3);
  });

  it('stops at the time bound once the minimum number of rounds is done', async () => {
    const rows = await compareVariants([{ name: 'a', run: async () => undefined }], { warmupIterations: 0, iterations: 1_000_000, minIterations: 5, maxTimeInMs: 0 });
    expect(rows[0].iterations).toBe(5);
  });

  it('stops the run when a variant gives a wrong answer', async () => {
    const variant = {
      name: 'wrong',
      run: async () => 41,
      check: (answer) => {
        if (answer !== 42) throw new Error(`expected 42, got ${answer}`);
      },
    };
    await expect(compareVariants([variant], { warmupIterations: 0, iterations: 3, maxTimeInMs: 1_000 })).rejects.toThrow('expected 42, got 41');
  });
});

describe('CPU time beside wall time', () => {
  it('records client CPU per iteration, server CPU through serverCpuInMs, and CPU ratios beside the wall ratios', async () => {
    let serverClock = 0;
    // Spins until this process has used `milliseconds` of CPU (bounded by a 2 s wall deadline), however loaded the machine.
    // Tens of milliseconds, not a few: process.cpuUsage counts every thread of the process (GC, the test
    // runner's own), whose few milliseconds per round swamped 2–4 ms spins (a CI run measured 1.14 for 2).
    const busy = (milliseconds) => () => {
      const start = process.cpuUsage();
      const deadline = performance.now() + 2_000;
      for (let used = 0; used < milliseconds * 1000 && performance.now() < deadline;) {
        const delta = process.cpuUsage(start);
        used = delta.user + delta.system;
      }
      return Promise.resolve();
    };
    const server = (milliseconds) => async () => void (serverClock += milliseconds);
    const rows = await compareVariants(
      [
        { name: 'aicap', run: busy(40) },
        { name: 'floor', run: busy(20) },
        {
          name: 'mcp',
          run: async () => {
            await busy(20)();
            await server(60)();
          },
        },
      ],
      { warmupIterations: 0, iterations: 5, maxTimeInMs: 5_000, serverCpuInMs: () => serverClock },
    );
    expect(rows[0].clientCpuMedianInMs).toBeGreaterThan(rows[1].clientCpuMedianInMs);
    expect(rows[2].serverCpuMedianInMs).toBe(60);
    const comparison = againstFloorAndMcp(rows);
    expect(comparison.versusFloorCpu.median).toBeGreaterThan(1.3);
    // MCP: 20 ms client + 60 ms server against aicap's 40 ms client.
    expect(comparison.versusMcpCpu.median).toBeGreaterThan(1.3);
    expect(comparison.rows[0]).not.toHaveProperty('cpuSamples');
  });

  it('a run is quiet enough only when it starts at most at the core count and others take at most a quarter of the CPU', () => {
    expect(isQuietEnough({ loadAtStart: 1.9, otherCpuShare: 0.25 }, 2)).toBe(true);
    expect(isQuietEnough({ loadAtStart: 2.1, otherCpuShare: 0 }, 2)).toBe(false);
    expect(isQuietEnough({ loadAtStart: 0.5, otherCpuShare: 0.26 }, 2)).toBe(false);
    // Off Linux the share is unknown: the load at the start decides alone.
    expect(isQuietEnough({ loadAtStart: 0.5, otherCpuShare: undefined }, 2)).toBe(true);
  });

  it('the share of other processes leaves out this process and its reaped children', () => {
    const cores = cpus().length;
    const start = { machineBusy: 1000, own: 100, elapsed: 500 };
    // 800 busy ticks in 500 ticks of every core, 300 of them this process tree's: others took 500.
    expect(otherCpuShare(start, { machineBusy: 1800, own: 400, elapsed: 1000 })).toBeCloseTo(500 / (500 * cores), 3);
    expect(otherCpuShare(start, { machineBusy: 1300, own: 400, elapsed: 1000 })).toBe(0);
    expect(otherCpuShare(undefined, start)).toBeUndefined();
    expect(otherCpuShare(start, start)).toBeUndefined();
  });

  it.runIf(process.platform === 'linux')('counts a child that spent CPU and was waited for as this process tree, not as others', () => {
    const before = readCpuTicks();
    // The child spins until it has used 300 ms of CPU, however loaded the machine is.
    const child = spawnSync(process.execPath, ['-e', 'const end = 300_000; while (process.cpuUsage().user + process.cpuUsage().system < end);'], { timeout: 30_000 });
    expect(child.status).toBe(0);
    const after = readCpuTicks();
    // /proc counts in USER_HZ ticks (100 a second on Linux): 300 ms is at least 25 after rounding.
    expect(after.own - before.own).toBeGreaterThanOrEqual(25);
    expect(after.machineBusy - before.machineBusy).toBeGreaterThanOrEqual(after.own - before.own - 2);
  });
});

describe('assessTargets', () => {
  const ratio = (median) => ({ median, p25: median, p75: median, rounds: 1 });
  it.each([
    ['discovery_known_vs_floor', 1.5, '≤ 1.5', true],
    ['discovery_known_vs_floor', 1.51, '≤ 1.5', false],
    ['cli_version_vs_node', 1.6, '≤ 1.5', false],
    ['first_turn_tokens_fewer', 70, '≥ 50', true],
    ['discovery_cold_vs_mcp', 3, '≥ 3', true],
    ['discovery_cold_vs_mcp', 2.99, '≥ 3', false],
    ['serve_vs_static', 0.95, '≥ 0.95', true],
    ['revalidation_vs_mcp', 0.5, 'none', undefined],
  ])('judges %s = %s against %s', (key, value, target, met) => {
    expect(assessTargets({ [key]: ratio(value) }).find((row) => row.key === key)).toMatchObject({ key, value, target, met });
  });

  it('leaves a target it has no figure for unjudged instead of failing it', () => {
    expect(assessTargets({}).find((row) => row.key === 'big_cache_hit_ms')).toMatchObject({ value: undefined, met: undefined, target: '≤ 1' });
  });
});
