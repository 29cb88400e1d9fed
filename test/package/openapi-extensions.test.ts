/**
 * The `x-ai-*` extensions are checked three ways that agree: the JSON Schemas published in
 * `schema/openapi-extensions/` (written from `src/openapi/ai-extension-schemas.ts`; rewrite with
 * `npx vitest run test/package/openapi-extensions.test.ts -u`), the Spectral ruleset beside them
 * (run here with @stoplight/spectral-core, as `spectral lint --ruleset` would), and `aicap generate`,
 * which refuses a malformed `x-ai-exclude` or `x-ai-policy` naming its JSON Pointer.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Document, Spectral, type RulesetDefinition } from '@stoplight/spectral-core';
import { pattern, schema } from '@stoplight/spectral-functions';
import { Yaml } from '@stoplight/spectral-parsers';
import { describe, expect, it } from 'vitest';
import { aiExtensionSchemas } from '../../src/openapi/ai-extension-schemas.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';

const OPERATION = '$.paths[*][get,put,post,delete,patch,head]';
const WHERE: Record<string, string> = {
  'x-ai-intent': OPERATION,
  'x-ai-errors': OPERATION,
  'x-ai-policy-operation': OPERATION,
  'x-ai-temporal': OPERATION,
  'x-ai-resource': '$.paths[*].get',
  'x-ai-exclude': OPERATION,
  'x-ai-policy-root': '$',
  'x-ai-prompts': '$',
  'x-ai-provider-discovery': '$.components.securitySchemes[*]',
};
const FIELD: Record<string, string> = { 'x-ai-policy-operation': 'x-ai-policy', 'x-ai-policy-root': 'x-ai-policy' };

/** The Spectral ruleset as shipped: one `schema` rule per extension, and one for unknown `x-ai-*` names. */
function spectralRuleset(): { rules: Record<string, unknown> } {
  const rules: Record<string, unknown> = {};
  for (const [name, definition] of Object.entries(aiExtensionSchemas)) {
    const { $id: _id, $schema: _dialect, title: _title, ...body } = definition;
    rules[`aicap-${name}`] = {
      description: `${FIELD[name] ?? name} must match schema/openapi-extensions/${name}.schema.json (docs/spec.md section 11).`,
      severity: 'error',
      // The path selects the member itself: with \`field\`, Spectral's schema function would report every operation without it.
      given: `${WHERE[name]!}['${FIELD[name] ?? name}']`,
      then: { function: 'schema', functionOptions: { schema: body, dialect: 'draft2020-12' } },
    };
  }
  rules['aicap-x-ai-unknown'] = {
    description: 'An x-ai-* member on an operation that docs/spec.md section 11 does not define (usually a misspelling, whose intent is lost).',
    severity: 'warn',
    given: OPERATION,
    then: { field: '@key', function: 'pattern', functionOptions: { notMatch: '^x-ai-(?!(intent|errors|policy|temporal|resource|exclude)$)' } },
  };
  return { rules };
}

const directory = '../../schema/openapi-extensions';

describe('the x-ai-* extension schemas and Spectral ruleset shipped in the package', () => {
  it.each(Object.keys(aiExtensionSchemas))('schema/openapi-extensions/%s.schema.json is up to date', async (name) => {
    await expect(`${JSON.stringify(aiExtensionSchemas[name], null, 2)}\n`).toMatchFileSnapshot(`${directory}/${name}.schema.json`);
  });

  it('spectral-ruleset.json is up to date', async () => {
    await expect(`${JSON.stringify(spectralRuleset(), null, 2)}\n`).toMatchFileSnapshot(`${directory}/spectral-ruleset.json`);
  });

  it('are exported by the package', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { exports: Record<string, unknown> };
    // One entry per file: a `*` pattern is not followed by TypeScript's or every bundler's resolution.
    for (const file of [...Object.keys(aiExtensionSchemas).map((name) => `${name}.schema.json`), 'spectral-ruleset.json']) {
      expect(manifest.exports[`./schema/openapi-extensions/${file}`]).toBe(`./schema/openapi-extensions/${file}`);
    }
  });
});

const payments = readFileSync(new URL('../fixtures/openapi/payments.openapi.yaml', import.meta.url), 'utf8');
const broken = payments
  .replace('x-ai-exclude: true', 'x-ai-exclude: "yes please"')
  .replace('operationId: internal_metrics\n', 'operationId: internal_metrics\n      x-ai-intent: 42\n      x-ai-temporl: { status_endpoint: /x }\n');

async function lint(text: string): Promise<Array<{ code: string; path: string }>> {
  const spectral = new Spectral();
  const functions: Record<string, unknown> = { schema, pattern };
  const shipped = JSON.parse(readFileSync(new URL(`${directory}/spectral-ruleset.json`, import.meta.url), 'utf8')) as { rules: Record<string, { then: { function: string } }> };
  for (const rule of Object.values(shipped.rules)) (rule.then as unknown as Record<string, unknown>)['function'] = functions[rule.then.function];
  spectral.setRuleset(shipped as unknown as RulesetDefinition);
  const results = await spectral.run(new Document(text, Yaml, 'payments.openapi.yaml'));
  return results.map((result) => ({ code: String(result.code), path: result.path.join('/') }));
}

describe('the Spectral ruleset, run by @stoplight/spectral-core', () => {
  it('accepts the Payments description with its x-ai-* extensions', async () => {
    expect(broken).not.toBe(payments);
    const found = await lint(payments);
    expect(found, JSON.stringify(found)).toEqual([]);
  });

  it('reports a non-boolean x-ai-exclude, a numeric x-ai-intent and a misspelt x-ai-temporal', async () => {
    const found = await lint(broken);
    expect(found).toEqual(
      expect.arrayContaining([
        { code: 'aicap-x-ai-exclude', path: 'paths//internal/metrics/get/x-ai-exclude' },
        expect.objectContaining({ code: 'aicap-x-ai-intent' }),
        expect.objectContaining({ code: 'aicap-x-ai-unknown', path: expect.stringMatching(/x-ai-temporl$/) as unknown }),
      ]),
    );
  });
});

describe('aicap generate (built CLI) refuses a malformed x-ai-exclude', () => {
  it('exits with OPENAPI_INVALID naming the JSON Pointer, and writes no manifest', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'aicap-x-ai-'));
    const file = join(folder, 'payments.openapi.yaml');
    for (const value of ['"yes please"', '"true"']) {
      await writeFile(file, payments.replace('x-ai-exclude: true', `x-ai-exclude: ${value}`));
      const run = await runBuiltCli(['generate', file]);
      expect(run.code, run.stderr).not.toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('/paths/~1internal~1metrics/get/x-ai-exclude: x-ai-exclude must be boolean');
    }
  });

  it('refuses a non-boolean human_approval_required, and warns about an unknown x-ai-* name', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'aicap-x-ai-'));
    const file = join(folder, 'payments.openapi.yaml');
    await writeFile(file, payments.replace('operationId: internal_metrics\n      x-ai-exclude: true\n', 'operationId: internal_metrics\n      x-ai-policy: { human_approval_required: "yes" }\n'));
    const refused = await runBuiltCli(['generate', file]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('/paths/~1internal~1metrics/get/x-ai-policy/human_approval_required: x-ai-policy member human_approval_required must be boolean');
    await writeFile(file, payments.replace('operationId: internal_metrics\n', 'operationId: internal_metrics\n      x-ai-temporl: { status_endpoint: /x }\n'));
    const warned = await runBuiltCli(['generate', file]);
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.stderr).toMatch(/x-ai-temporl is not an extension aicap knows/);
  });
});
