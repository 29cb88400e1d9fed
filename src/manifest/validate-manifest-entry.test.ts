// The client's split of validation: the manifest-level checks on discovery (`validateManifestRoot`),
// each entry's where it is used (`validateManifestEntry`). Together they must find what
// `validateManifest` finds, on every fixture and conformance case, except shared definitions that no
// entry reaches other than through `returns.schema`, which nothing uses.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { invalidFixtures } from '../../test/fixtures/manifests/expectations.js';
import { loadPayments, readFixture } from '../../test/fixtures/manifests/load-fixture.js';
import type { Manifest } from './manifest-v0.js';
import { reachableDefinitions } from './reachable-definitions.js';
import { validateManifest, validateManifestEntry, validateManifestRoot } from './validate-manifest.js';

type Finding = string;

const errorsOf = (issues: ReadonlyArray<{ severity: string; pointer: string; code: string }>): Finding[] =>
  issues.filter((issue) => issue.severity === 'error').map((issue) => `${issue.code} ${issue.pointer}`);

function entriesOf(manifest: Manifest): object[] {
  return [...manifest.tools, ...(manifest.resources ?? []), ...(manifest.prompts ?? [])];
}

/** The errors of the split, or `undefined` for the entries when the manifest-level checks refuse it. */
function splitErrors(value: unknown): { root: Finding[]; entries: Finding[] | undefined } {
  const root = validateManifestRoot(value, { warnUnknownFields: false });
  if (!root.valid) return { root: errorsOf(root.issues), entries: undefined };
  const manifest = root.manifest!;
  return { root: errorsOf(root.issues), entries: entriesOf(manifest).flatMap((entry) => errorsOf(validateManifestEntry(manifest, entry))) };
}

/** The entry without its response schema, which no use of it reads. */
function withoutResponseSchema(entry: object): object {
  const returns = (entry as { returns?: unknown }).returns;
  if (typeof returns !== 'object' || returns === null || !('schema' in returns)) return entry;
  return { ...entry, returns: { ...returns, schema: undefined } };
}

/** Definitions that some entry reaches other than through its response schema, by name. */
function reachedDefinitionNames(value: Record<string, unknown>): Set<string> {
  const definitions = value['definitions'] as Manifest['definitions'];
  return new Set(entriesOf(value as unknown as Manifest).flatMap((entry) => reachableDefinitions(withoutResponseSchema(entry), definitions)));
}

function cases(): Array<{ name: string; value: Record<string, unknown> }> {
  const all: Array<{ name: string; value: Record<string, unknown> }> = [{ name: 'payments', value: loadPayments() as unknown as Record<string, unknown> }];
  for (const fixture of invalidFixtures) all.push({ name: `fixture ${fixture.file}`, value: JSON.parse(readFixture(`invalid/${fixture.file}.json`)) });
  const directory = new URL('../../conformance/manifests/', import.meta.url);
  for (const file of readdirSync(directory).filter((name) => name.endsWith('.json'))) {
    for (const entry of JSON.parse(readFileSync(new URL(file, directory), 'utf8')) as Array<{ id: string; manifest: unknown }>) {
      if (typeof entry.manifest === 'object' && entry.manifest !== null && !Array.isArray(entry.manifest))
        all.push({ name: `conformance ${entry.id}`, value: entry.manifest as Record<string, unknown> });
    }
  }
  return all;
}

describe('validateManifestRoot and validateManifestEntry', () => {
  it.each(cases().map((testCase) => [testCase.name, testCase.value] as const))('find together what validateManifest finds: %s', (_name, value) => {
    const whole = validateManifest(value, { warnUnknownFields: false });
    const wholeErrors = errorsOf(whole.issues);
    const split = splitErrors(value);
    if (split.entries === undefined) {
      // Refused on discovery: each of its findings is one the whole validation has.
      expect(whole.valid).toBe(false);
      expect(wholeErrors).toEqual(expect.arrayContaining(split.root));
      return;
    }
    const reached = reachedDefinitionNames(value);
    const found = new Set([...split.root, ...split.entries]);
    // Every error of the whole validation, but those of definitions nothing reaches, is found by the split…
    const unreached = (finding: Finding): boolean => {
      const name = /^\S+ \/definitions\/([^/]+)/.exec(finding)?.[1];
      return name !== undefined && !reached.has(name.replaceAll('~1', '/').replaceAll('~0', '~'));
    };
    expect(wholeErrors.filter((finding) => !found.has(finding) && !unreached(finding))).toEqual([]);
    // …and the split finds nothing the whole validation does not.
    expect([...found].filter((finding) => !wholeErrors.includes(finding))).toEqual([]);
  });

  it('accepts on discovery a manifest whose only errors are in one tool, and names them for that tool alone', () => {
    const value = JSON.parse(readFixture('invalid/path-unused-parameter.json')) as Manifest;
    const root = validateManifestRoot(value);
    expect(root.valid).toBe(true);
    const [broken, ...others] = value.tools;
    expect(errorsOf(validateManifestEntry(value, broken!))).toEqual(['path.unused_parameter /tools/0/parameters/account_id']);
    for (const tool of others) expect(errorsOf(validateManifestEntry(value, tool))).toEqual([]);
  });

  it('refuses on discovery what no entry can be held back for: a duplicate id, an entry that is no object, one without a well-formed id', () => {
    const payments = (): Record<string, unknown> & Manifest => loadPayments() as never;
    expect(errorsOf(validateManifestRoot(JSON.parse(readFixture('invalid/duplicate-id.json'))).issues)).toEqual(['id.duplicate /resources/1/id']);
    const notObject = payments();
    (notObject.tools as unknown[])[2] = 'get_balance';
    expect(errorsOf(validateManifestRoot(notObject).issues)).toEqual(['schema.type /tools/2']);
    const noId = payments();
    delete (noId.tools[1] as Partial<Manifest['tools'][number]>).id;
    expect(errorsOf(validateManifestRoot(noId).issues)).toEqual(['schema.required /tools/1/id']);
    const numberId = payments();
    (numberId.tools[1] as unknown as { id: number }).id = 7;
    expect(errorsOf(validateManifestRoot(numberId).issues)).toEqual(['schema.type /tools/1/id']);
    const badId = payments();
    badId.tools[1]!.id = '1st_tool';
    expect(errorsOf(validateManifestRoot(badId).issues)).toEqual(['id.invalid /tools/1/id']);
  });

  it('gives an entry the findings of the shared definitions it reaches, and none to an entry that reaches none', () => {
    const value = JSON.parse(readFixture('invalid/definition-ref-cycle.json')) as Manifest;
    // The fixture's loop is reached by no tool; the first one's date range now refers to it.
    value.tools[0]!.parameters!['date_range']!.json_schema = { $ref: '#/definitions/A' };
    expect(validateManifestRoot(value).valid).toBe(true);
    const verdicts = value.tools.map((tool) => errorsOf(validateManifestEntry(value, tool)));
    expect(verdicts[0]).toContain('schema.ref_cycle /definitions/A');
    expect(verdicts.slice(1).flat()).toEqual([]);
  });

  it('checks the shared definitions an entry reaches only through returns.schema in the whole validation, not where the entry is used', () => {
    const value = JSON.parse(readFixture('invalid/definition-ref-cycle.json')) as Manifest;
    // The first tool's response schema reaches the loop; the third tool's parameters reach it too.
    value.tools[0]!.returns = { ...value.tools[0]!.returns, schema: { $ref: '#/definitions/A' } };
    value.tools[2]!.parameters!['filter'] = { in: 'body', type: 'object', json_schema: { $ref: '#/definitions/A' } };
    expect(validateManifestRoot(value).valid).toBe(true);
    expect(errorsOf(validateManifestEntry(value, value.tools[0]!))).toEqual([]);
    expect(errorsOf(validateManifestEntry(value, value.tools[2]!))).toContain('schema.ref_cycle /definitions/A');
    expect(errorsOf(validateManifest(value).issues)).toContain('schema.ref_cycle /definitions/A');
    // The response schema's own text is still the entry's: an unsafe construct there holds it back.
    const unsafe = JSON.parse(readFixture('invalid/definition-ref-cycle.json')) as Manifest;
    unsafe.tools[0]!.returns = { ...unsafe.tools[0]!.returns, schema: { $ref: 'https://attacker.example/schema.json' } };
    expect(errorsOf(validateManifestEntry(unsafe, unsafe.tools[0]!))).toEqual([expect.stringMatching(/ \/tools\/0\/returns\/schema/)]);
  });

  it('checks only the schema when asked, and remembers each verdict per entry object', () => {
    const value = JSON.parse(readFixture('invalid/path-unused-parameter.json')) as Manifest;
    const tool = value.tools[0]!;
    expect(validateManifestEntry(value, tool, 'schema')).toEqual([]);
    const verdict = validateManifestEntry(value, tool);
    expect(errorsOf(verdict)).toEqual(['path.unused_parameter /tools/0/parameters/account_id']);
    expect(validateManifestEntry(value, tool)).toBe(verdict);
    // A copy is not an entry of the manifest: nothing to validate it against.
    expect(errorsOf(validateManifestEntry(value, { ...tool }, 'schema'))).toEqual(['entry.unknown ']);
    const mistyped = JSON.parse(readFixture('invalid/path-unused-parameter.json')) as Manifest;
    (mistyped.tools[1] as { method: unknown }).method = 42;
    expect(validateManifestRoot(mistyped).valid).toBe(true);
    expect(errorsOf(validateManifestEntry(mistyped, mistyped.tools[1]!, 'schema'))).toEqual([expect.stringMatching(/ \/tools\/1\/method$/)]);
  });
});
