/**
 * Every MUST of docs/spec.md is tested: `conformance/spec-coverage.json` maps each sentence holding
 * MUST (by its section and a distinctive part of its text) to kit fixtures a second implementation
 * can run. Where none can exist the entry is graded `manual` with the reason; where the kit's format
 * cannot express the rule yet, `kit_pending` says what it needs and the reference implementation's
 * own tests cover it meanwhile. A new MUST without an entry fails here, naming the sentence.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface Requirement {
  section: string;
  must: string;
  fixtures?: string[];
  reference_tests?: string[];
  untestable?: string;
  /** `manual`: no kit case can test it from outside (`untestable` says why). */
  grade?: 'manual';
  /** What the kit's format lacks to test it (the reference tests cover it meanwhile). */
  kit_pending?: string;
}

const root = new URL('../../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, root), 'utf8');
const requirements = (JSON.parse(read('conformance/spec-coverage.json')) as { requirements: Requirement[] }).requirements;

/** Each sentence holding MUST, with the number of the (sub)section it is in. */
function mustSentences(markdown: string): Array<{ section: string; sentence: string }> {
  const found: Array<{ section: string; sentence: string }> = [];
  let section = '';
  for (const line of markdown.split('\n')) {
    const heading = /^#{2,4} (?:Appendix ([A-Z])\.|(\d+(?:\.\d+)*)\.?) /.exec(line);
    if (heading) section = heading[1] ?? heading[2]!;
    else if (!line.startsWith('The key words')) for (const sentence of line.split(/(?<=[.;])\s+(?=[A-Z*`(-])/)) if (/\bMUST\b/.test(sentence)) found.push({ section, sentence });
  }
  return found;
}

/** Every fixture id of the kit. */
function kitIds(): Set<string> {
  const ids = new Set<string>();
  for (const name of readdirSync(new URL('conformance/manifests/', root))) for (const entry of JSON.parse(read(`conformance/manifests/${name}`)) as Array<{ id: string }>) ids.add(entry.id);
  for (const name of ['producer', 'client']) for (const entry of (JSON.parse(read(`conformance/http/${name}.json`)) as { scenarios: Array<{ id: string }> }).scenarios) ids.add(entry.id);
  for (const entry of JSON.parse(read('conformance/generator/cases.json')) as Array<{ id: string }>) ids.add(entry.id);
  for (const entry of (JSON.parse(read('conformance/mcp/bridge.json')) as { scenarios: Array<{ id: string }> }).scenarios) ids.add(entry.id);
  return ids;
}

describe('conformance/spec-coverage.json', () => {
  const sentences = mustSentences(read('docs/spec.md'));
  const ids = kitIds();

  it('has an entry for every MUST sentence of docs/spec.md', () => {
    const uncovered = sentences.filter(({ section, sentence }) => !requirements.some((entry) => entry.section === section && sentence.includes(entry.must)));
    expect(uncovered.map(({ section, sentence }) => `§${section}: ${sentence}`)).toEqual([]);
  });

  it('has no entry that matches no sentence (a MUST that was reworded or moved)', () => {
    const stale = requirements.filter((entry) => !sentences.some(({ section, sentence }) => entry.section === section && sentence.includes(entry.must)));
    expect(stale.map((entry) => `§${entry.section}: ${entry.must}`)).toEqual([]);
  });

  it('names only fixtures and tests that exist, and every entry is covered somehow', () => {
    expect(requirements.flatMap((entry) => (entry.fixtures ?? []).filter((id) => !ids.has(id)))).toEqual([]);
    expect(requirements.flatMap((entry) => (entry.reference_tests ?? []).filter((path) => !existsSync(new URL(path, root))))).toEqual([]);
    expect(requirements.filter((entry) => !entry.fixtures?.length && !entry.reference_tests?.length && !entry.untestable)).toEqual([]);
  });

  it('says of every MUST without a kit case why: graded manual with a reason, or pending with what the kit lacks and the tests meanwhile', () => {
    const silent = requirements.filter((entry) => {
      if (entry.fixtures?.length) return false;
      if (entry.grade === 'manual') return !entry.untestable;
      return !entry.kit_pending || !entry.reference_tests?.length;
    });
    expect(silent.map((entry) => `§${entry.section}: ${entry.must}`)).toEqual([]);
    expect(requirements.filter((entry) => entry.grade === 'manual' && entry.fixtures?.length).map((entry) => entry.must)).toEqual([]);
  });

  it('tests most MUSTs with a kit fixture another implementation can run', () => {
    const withFixture = requirements.filter((entry) => (entry.fixtures ?? []).length > 0).length;
    // A floor, not a target: raise it as pending MUSTs join the kit (116 of 124 today).
    expect(withFixture / requirements.length).toBeGreaterThan(0.9);
  });
});
