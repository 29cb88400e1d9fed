import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv/dist/2020.js';
// @ts-expect-error: a build script in plain JavaScript, without declarations.
import { minifyModule, renderStandaloneValidators } from '../../scripts/write-manifest-validators.mjs';
import { fixturePath } from '../../test/fixtures/manifests/load-fixture.js';
import { manifestSchema } from './manifest-schema.js';
import {
  compileManifestValidators,
  createManifestAjv,
  getManifestValidators,
  MANIFEST_LISTS,
  MANIFEST_VALIDATOR_REFERENCES,
  usesUnevaluatedKeywords,
  type ManifestValidators,
} from './manifest-validators.js';
import type { StandaloneManifestValidators } from './standalone-manifest-validators.js';

const require = createRequire(import.meta.url);
const render = renderStandaloneValidators as (ajv: unknown, references: Record<string, string>, resolveSpecifier: (specifier: string) => string) => string;
const minify = minifyModule as (moduleText: string) => string;

/** Every value the tests feed the validators: the fixtures as they are, and each of them broken in many places. */
function inputs(): Array<{ name: string; value: unknown }> {
  const folder = fixturePath('');
  const named = ['valid', 'invalid', 'warning'].flatMap((kind) =>
    readdirSync(join(folder, kind))
      .filter((file) => file.endsWith('.json'))
      .map((file) => ({ name: `${kind}/${file}`, value: JSON.parse(readFileSync(join(folder, kind, file), 'utf8')) as unknown })),
  );
  named.push({ name: 'payments', value: JSON.parse(readFileSync(fixturePath('payments'), 'utf8')) as unknown });
  const mutated = named
    .filter(({ name }) => !name.startsWith('invalid/'))
    .flatMap(({ name, value }) => mutations(value).map((variant, index) => ({ name: `${name} mutation ${index}`, value: variant })));
  return [...named, ...mutated];
}

/** Copies of a document with one node broken each: a wrong type, a removed member, an unknown member (every seventh node, bounded). */
function mutations(document: unknown): unknown[] {
  const paths: Array<Array<string | number>> = [];
  const walk = (value: unknown, path: Array<string | number>): void => {
    paths.push(path);
    if (Array.isArray(value)) value.forEach((item, index) => walk(item, [...path, index]));
    else if (typeof value === 'object' && value !== null) for (const [key, child] of Object.entries(value)) walk(child, [...path, key]);
  };
  walk(document, []);
  const breakages: Array<(value: unknown) => unknown> = [
    (value) => (typeof value === 'string' ? 42 : 'text'),
    (value) => (Array.isArray(value) ? {} : []),
    () => undefined,
    (value) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value, zz_unknown: true } : null),
  ];
  const variants: unknown[] = [];
  for (let index = 1; index < paths.length && variants.length < 400; index += 7) {
    const path = paths[index]!;
    const copy = structuredClone(document);
    let parent = copy as Record<string | number, unknown>;
    for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
    const last = path.at(-1)!;
    const broken = breakages[index % breakages.length]!(parent[last]);
    if (broken === undefined) delete parent[last];
    else parent[last] = broken;
    variants.push(copy);
  }
  return variants;
}

function outcome(validate: ValidateFunction, value: unknown): { valid: boolean; errors: unknown } {
  const valid = validate(value) as boolean;
  return { valid, errors: structuredClone(validate.errors ?? null) };
}

describe('manifest validators generated at build time', () => {
  let directory: string;
  let standalone: StandaloneManifestValidators;
  let compiled: ManifestValidators;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'aicap-standalone-validators-'));
    const file = join(directory, 'standalone-manifest-validators.mjs');
    // The helpers are imported from this checkout's ajv, wherever the temporary file lives; minified, as the build writes it.
    const code = render(createManifestAjv({ source: true, esm: true }), MANIFEST_VALIDATOR_REFERENCES, (specifier) => require.resolve(specifier));
    const minified = minify(code);
    expect(minified.length).toBeLessThan(code.length * 0.7);
    writeFileSync(file, minified);
    standalone = ((await import(pathToFileURL(file).href)) as { standaloneManifestValidators: StandaloneManifestValidators }).standaloneManifestValidators;
    compiled = compileManifestValidators();
  }, 60_000);
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('give the same verdicts and errors as the schema compiled at run time, on every fixture and its mutations', () => {
    let failures = 0;
    for (const { name, value } of inputs()) {
      const lists = { tools: [] as unknown[], resources: [] as unknown[], prompts: [] as unknown[] };
      if (typeof value === 'object' && value !== null) for (const list of Object.keys(lists) as Array<keyof typeof lists>) lists[list] = [(value as Record<string, unknown>)[list]].flat();
      const runtime = outcome(compiled.root, value);
      expect(outcome(standalone.root, value), name).toEqual(runtime);
      if (!runtime.valid) failures++;
      for (const list of Object.keys(lists) as Array<keyof typeof lists>) {
        for (const element of lists[list]) {
          const expected = outcome(compiled.items[list], element);
          expect(outcome(standalone[list], element), `${name} ${list}`).toEqual(expected);
          if (!expected.valid) failures++;
        }
      }
    }
    // The mutations must reach the error paths, or the comparison above proves little.
    expect(failures).toBeGreaterThan(100);
  });

  it('track no evaluated members, and give the same verdicts and errors as a compile that tracks them (the default of Ajv2020)', () => {
    expect(usesUnevaluatedKeywords(manifestSchema)).toBe(false);
    expect(usesUnevaluatedKeywords({ type: 'object', properties: { a: { unevaluatedProperties: false } } })).toBe(true);
    const tracking = createManifestAjv();
    tracking.opts.unevaluated = true;
    const tracked = (reference: string): ValidateFunction => tracking.getSchema(reference)!;
    expect(tracked(MANIFEST_VALIDATOR_REFERENCES.tools).toString()).toContain('evaluated');
    expect(compiled.items.tools.toString()).not.toContain('evaluated');
    let failures = 0;
    for (const { name, value } of inputs()) {
      const expected = outcome(tracked(MANIFEST_VALIDATOR_REFERENCES.root), value);
      expect(outcome(compiled.root, value), name).toEqual(expected);
      if (!expected.valid) failures++;
      if (typeof value !== 'object' || value === null) continue;
      for (const list of MANIFEST_LISTS) {
        for (const element of [(value as Record<string, unknown>)[list]].flat()) {
          const expectedElement = outcome(tracked(MANIFEST_VALIDATOR_REFERENCES[list]), element);
          expect(outcome(compiled.items[list], element), `${name} ${list}`).toEqual(expectedElement);
          if (!expectedElement.valid) failures++;
        }
      }
    }
    expect(failures).toBeGreaterThan(100);
  });

  it("take the instance path alone where ajv's validators only hand on the rest of their context, and keep ajv's calls where a keyword reads it", async () => {
    const manifestCode = render(createManifestAjv({ source: true, esm: true }), MANIFEST_VALIDATOR_REFERENCES, (specifier) => require.resolve(specifier));
    expect(manifestCode).toMatch(/function validate\d+\(data, instancePath = ""\)/);
    expect(manifestCode).not.toMatch(/parentData|rootData|dynamicAnchors/);
    // `$dynamicRef` reads the dynamic anchors a caller hands on: that code keeps its options objects.
    const { Ajv2020 } = (await import('ajv/dist/2020.js')) as unknown as { Ajv2020: new (options: object) => { addSchema(schema: object): void } };
    const dynamic = new Ajv2020({ code: { source: true, esm: true } });
    dynamic.addSchema({ $id: 'urn:test:tree', $dynamicAnchor: 'node', type: 'object', properties: { children: { type: 'array', items: { $dynamicRef: '#node' } } } });
    const dynamicCode = render(dynamic, { tree: 'urn:test:tree' }, (specifier) => require.resolve(specifier));
    expect(dynamicCode).toContain('dynamicAnchors');
    expect(dynamicCode).not.toMatch(/function validate\d+\(data, instancePath = ""\)/);
  });

  it('count characters and escape member names as the run-time compile does, where the generated code takes shortcuts', () => {
    const tool = { id: 'a', path: '/a', method: 'POST', description: 'd' };
    const astral = (count: number): string => '😀'.repeat(count);
    const cases = [
      // Code points, not code units: 8,192 emoji are 16,384 code units and fit `maxLength: 8192`; one more does not.
      { ...tool, description: astral(8192) },
      { ...tool, description: astral(8193) },
      { ...tool, description: `${'x'.repeat(8191)}😀` },
      { ...tool, description: 'x'.repeat(8193) },
      { ...tool, description: '' },
      { ...tool, body_parameter: '😀' },
      { ...tool, parameters: { 'a/b~c': { type: 1 }, plain: { type: 'string', description: astral(8193) } } },
    ];
    const verdicts = cases.map((value) => {
      const expected = outcome(compiled.items.tools, value);
      expect(outcome(standalone.tools, value)).toEqual(expected);
      return expected;
    });
    expect(verdicts.map((verdict) => verdict.valid)).toEqual([true, false, true, false, false, true, false]);
    expect(JSON.stringify(verdicts[6]?.errors)).toContain('/parameters/a~1b~0c/type');
  });

  it('run from source, the schema is compiled at run time', () => {
    const validators = getManifestValidators();
    expect(validators.root(JSON.parse(readFileSync(fixturePath('payments'), 'utf8')))).toBe(true);
    expect(getManifestValidators()).toBe(validators);
  });

  it("built, a process's first validation loads none of ajv's compiler, only the helper the generated code needs", async () => {
    // The built module (`npm test` builds first): a fresh process shows what the first validation loads.
    const moduleUrl = new URL('../../dist/manifest/validate-manifest.js', import.meta.url).href;
    const script = `const { validateManifest } = await import(${JSON.stringify(moduleUrl)});
      const { readFileSync } = await import('node:fs');
      const { createRequire } = await import('node:module');
      const result = validateManifest(JSON.parse(readFileSync(process.argv[1], 'utf8')));
      const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes('/node_modules/ajv/')).map((file) => file.slice(file.indexOf('/ajv/') + 1));
      process.stdout.write(JSON.stringify({ valid: result.valid, loaded }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, fixturePath('payments')], { timeout: 60_000 });
    expect(JSON.parse(stdout)).toEqual({ valid: true, loaded: ['ajv/dist/runtime/ucs2length.js'] });
  }, 60_000);
});
