import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from 'aicap';
import { DEFAULT_DISCOVERY_SCANS, benchmarkChecks, ceilingsOf, discoveryChecksInMs } from './checks.js';

const payments = JSON.parse(readFileSync(new URL('../../examples/payments/payments.manifest.json', import.meta.url), 'utf8'));
const few = { warmupIterations: 1, iterations: 4, maxTimeInMs: 10_000 };

describe('benchmarkChecks', () => {
  it('times every phase once per round, in the order a cold discovery runs them', () => {
    const result = benchmarkChecks(Buffer.from(canonicalJson(payments)), few);
    expect(result.rounds).toBe(4);
    expect(result.phases.map((phase) => phase.key)).toEqual(['decodeAndParseInMs', 'readerInMs', 'validationInMs', 'scanInMs', 'digestInMs']);
    for (const phase of result.phases) {
      expect(phase.rounds).toBe(4);
      expect(phase.median).toBeGreaterThanOrEqual(0);
      expect(phase.p25).toBeLessThanOrEqual(phase.p75);
    }
    // The validation and the scan of a real manifest take some time: a phase that did nothing would show 0.
    expect(result.phases.find((phase) => phase.key === 'scanInMs').median).toBeGreaterThan(0);
    expect(result.checksInMs.median).toBeGreaterThan(0);
    // The scan is still timed, as its own figure, but marked as outside a default discovery.
    expect(result.phases.filter((phase) => !phase.inChecks).map((phase) => phase.key)).toEqual(['decodeAndParseInMs', 'scanInMs']);
  });

  it("sums only the phases a discovery runs with the client's default options: not the scan, which runs on export", () => {
    expect(DEFAULT_DISCOVERY_SCANS).toBe(false);
    const phasesInMs = { decodeAndParseInMs: 100, readerInMs: 1, validationInMs: 2, scanInMs: 10, digestInMs: 0.5 };
    expect(discoveryChecksInMs(phasesInMs)).toBe(3.5);
  });

  it('stops at the time bound once it has its minimum of rounds', () => {
    expect(benchmarkChecks(Buffer.from(canonicalJson(payments)), { warmupIterations: 0, iterations: 1_000, minIterations: 2, maxTimeInMs: 0 }).rounds).toBe(2);
  });

  it('refuses to time a manifest the client would refuse, naming the member', () => {
    const broken = { ...payments, tools: [{ ...payments.tools[0], method: 'FETCH' }] };
    expect(() => benchmarkChecks(Buffer.from(JSON.stringify(broken)), few)).toThrow(/not valid: \/tools\/0\/method/);
  });
});

describe('ceilingsOf', () => {
  it('adds the checks to the floor and divides the fastest MCP mode by that sum', () => {
    const cold = {
      rows: [
        { name: 'aicap', medianInMs: 3 },
        { name: 'floor', medianInMs: 1 },
        { name: 'MCP slow', medianInMs: 9 },
        { name: 'MCP fast', medianInMs: 6 },
      ],
      versusMcp: { against: 'MCP fast' },
    };
    const ceilings = ceilingsOf(cold, { checksInMs: { median: 0.5 } });
    expect(ceilings.leastInMs).toBe(1.5);
    expect(ceilings.versusFloorAtLeast.median).toBe(1.5);
    expect(ceilings.versusMcpAtMost).toEqual({ median: 4, against: 'MCP fast ÷ (floor + checks)' });
  });
});
