/**
 * `aicap check` and the producer scenarios of the kit grade the same rules: each check line names the
 * kit scenarios that test its rule (`kit` in `--json`), those scenarios exist with the same level,
 * and every scenario a checker of someone else's service may run (`safe`) is either graded by a
 * check or listed here with the reason it is not, so a new scenario cannot be silently left out.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gradeCheckReport, gradedRules } from '../../src/client/check/grade-check-report.js';
import type { ProducerScenario } from './run-producer-scenario.js';

const scenarios = (JSON.parse(readFileSync(new URL('../../conformance/http/producer.json', import.meta.url), 'utf8')) as { scenarios: ProducerScenario[] }).scenarios;

/** Safe scenarios `aicap check` does not grade yet, and why. */
const NOT_GRADED_BY_CHECK: Record<string, string> = {
  'producer.change_feed.current_digest': 'aicap check does not open the change feed',
  'producer.change_feed.resume_current': 'aicap check does not open the change feed',
  'producer.change_feed.resume_other': 'aicap check does not open the change feed',
};

describe('aicap check and the producer scenarios of the kit', () => {
  const rules = gradedRules();

  it('names only kit scenarios that exist, at the level the check grades', () => {
    const named = rules.flatMap((rule) => (rule.kit ?? []).map((id) => ({ rule: rule.id, id, level: rule.level })));
    expect(named.length).toBeGreaterThanOrEqual(10);
    for (const { rule, id, level } of named) expect(scenarios.find((scenario) => scenario.id === id)?.level, `${rule} → ${id}`).toBe(level);
  });

  it('puts the kit ids on each graded line that has them, and none on a line that has none', () => {
    const graded = gradeCheckReport({
      url: 'https://api.example.com/.well-known/ai-capabilities',
      checks: [
        { id: 'http.conditional', outcome: 'pass', message: 'If-None-Match answered 304' },
        { id: 'trust.poisoning', outcome: 'pass', message: 'no poisoning found' },
      ],
    });
    expect(graded.checks.slice(0, 2)).toEqual([
      { id: 'http.conditional', outcome: 'pass', message: 'If-None-Match answered 304', level: 'SHOULD', section: '5', kit: ['producer.manifest.not_modified'] },
      { id: 'trust.poisoning', outcome: 'pass', message: 'no poisoning found', level: 'SHOULD', section: '10.2' },
    ]);
  });

  it('grades every safe scenario, or says why not', () => {
    const graded = new Set(rules.flatMap((rule) => rule.kit ?? []));
    const left = scenarios.filter((scenario) => scenario.safe && !graded.has(scenario.id)).map((scenario) => scenario.id);
    expect(left.sort()).toEqual(Object.keys(NOT_GRADED_BY_CHECK).sort());
  });
});
