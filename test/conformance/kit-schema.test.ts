/**
 * Every file of the conformance kit is valid against `conformance/schema/kit.schema.json`, the format
 * a second implementation reads the kit by, and the schema is strict enough to refuse a misspelt
 * member name or a rule of the wrong shape (which a runner would otherwise skip in silence).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { fromPointer } from '../../src/internal/json-pointer.js';

const root = new URL('../../', import.meta.url);
const read = (path: string): unknown => JSON.parse(readFileSync(new URL(path, root), 'utf8'));
const schema = read('conformance/schema/kit.schema.json') as { $id: string };
const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(schema);

/** Each kit file, with the `$defs` member of the schema that describes it (as the schema's description says). */
const files: Array<[path: string, definition: string]> = [
  ...readdirSync(new URL('conformance/manifests/', root)).map((name): [string, string] => [`conformance/manifests/${name}`, 'manifest_cases']),
  ['conformance/http/producer.json', 'producer_scenarios'],
  ['conformance/http/client.json', 'client_scenarios'],
  ['conformance/generator/cases.json', 'generator_cases'],
  ['conformance/mcp/bridge.json', 'mcp_scenarios'],
  ['conformance/spec-coverage.json', 'spec_coverage'],
];

function errorsOf(value: unknown, definition: string): Array<Pick<ErrorObject, 'instancePath' | 'keyword' | 'params'>> {
  const validate = ajv.getSchema(`${schema.$id}#/$defs/${definition}`)!;
  return validate(value) ? [] : (validate.errors ?? []).map(({ instancePath, keyword, params }) => ({ instancePath, keyword, params }));
}

describe('conformance/schema/kit.schema.json', () => {
  it('names a schema for every file of the kit', () => {
    const kitFiles = readdirSync(new URL('conformance/', root), { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.json') && !path.startsWith('schema'));
    expect(kitFiles.map((path) => `conformance/${path}`).sort()).toEqual(files.map(([path]) => path).sort());
  });

  it.each(files)('%s is valid against $defs/%s', (path, definition) => {
    expect(errorsOf(read(path), definition)).toEqual([]);
  });

  it('gives every case an id unique across the kit', () => {
    const ids = files.flatMap(([path, definition]) => {
      if (definition === 'spec_coverage') return [];
      const value = read(path) as Array<{ id: string }> | { scenarios: Array<{ id: string }> };
      return (Array.isArray(value) ? value : value.scenarios).map((entry) => entry.id);
    });
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });
});

describe('the kit schema refuses a misspelt member or a rule of the wrong shape', () => {
  /** The file at `path`, with each JSON Pointer of `edits` set to its value (a member added when the last token is new). */
  const edited = (path: string, edits: Record<string, unknown>): unknown => {
    const value = structuredClone(read(path));
    for (const [pointer, member] of Object.entries(edits)) {
      const tokens = fromPointer(pointer);
      const parent = tokens.slice(0, -1).reduce<Record<string, unknown>>((node, token) => node[token] as Record<string, unknown>, value as Record<string, unknown>);
      parent[tokens.at(-1)!] = member;
    }
    return value;
  };
  const clientRoutes = (read('conformance/http/client.json') as { scenarios: Array<{ routes?: object }> }).scenarios.findIndex((scenario) => scenario.routes);

  it.each([
    ['a manifest case', 'conformance/manifests/document.json', 'manifest_cases', '/0', 'isses'],
    ['a producer body rule', 'conformance/http/producer.json', 'producer_scenarios', '/scenarios/0/steps/0/expect/body', 'manifest_vaild'],
    ['a client expectation', 'conformance/http/client.json', 'client_scenarios', '/scenarios/0/expect', 'api_request'],
    ['a client route answer', 'conformance/http/client.json', 'client_scenarios', `/scenarios/${clientRoutes}/routes/~1v1~1x/0`, 'body'],
    ['a generator expectation', 'conformance/generator/cases.json', 'generator_cases', '/0/expect', 'same_manifest'],
    ['an MCP expectation', 'conformance/mcp/bridge.json', 'mcp_scenarios', '/scenarios/0/requests/0/expect', 'ui_origin_listed'],
    ['an MCP capture', 'conformance/mcp/bridge.json', 'mcp_scenarios', '/scenarios/0/requests/1/capture/page_uri', 'pointr'],
    ['a coverage entry', 'conformance/spec-coverage.json', 'spec_coverage', '/requirements/0', 'fixture'],
  ] as const)('%s', (_what, path, definition, instancePath, member) => {
    const route = instancePath.includes('/routes/') ? { [instancePath.replace(/\/0$/, '')]: [{ status: 200, headers: {} }] } : {};
    const errors = errorsOf(edited(path, { ...route, [`${instancePath}/${member}`]: true }), definition);
    // The MCP selections are extended with `allOf`, so an unknown member there is unevaluated rather than additional.
    const expected = member === 'pointr' ? { keyword: 'unevaluatedProperties', params: { unevaluatedProperty: member } } : { keyword: 'additionalProperties', params: { additionalProperty: member } };
    expect(errors).toEqual(expect.arrayContaining([{ instancePath, ...expected }]));
  });

  it('refuses a manifest case with two documents, a level that is not MUST or SHOULD, and an issue pointer that is not a JSON Pointer', () => {
    const cases = read('conformance/manifests/document.json') as Array<{ issues: unknown[] }>;
    const withIssue = cases.findIndex((entry) => entry.issues.length > 0);
    const value = edited('conformance/manifests/document.json', { '/0/manifest_text': '{}', '/1/level': 'MAY', [`/${withIssue}/issues/0/pointer`]: 'service/base_url' });
    const keywords = errorsOf(value, 'manifest_cases').map((error) => `${error.instancePath} ${error.keyword}`);
    expect(keywords).toEqual(expect.arrayContaining(['/0 oneOf', '/1/level enum', `/${withIssue}/issues/0/pointer pattern`]));
  });

  it('refuses a producer step whose target is not one the README defines, and a status out of range', () => {
    const value = edited('conformance/http/producer.json', { '/scenarios/0/steps/0/request/target': 'job.restart', '/scenarios/0/steps/0/expect/status': 2000 });
    expect(errorsOf(value, 'producer_scenarios').map((error) => `${error.instancePath} ${error.keyword}`)).toEqual(
      expect.arrayContaining(['/scenarios/0/steps/0/request/target enum', '/scenarios/0/steps/0/expect/status oneOf']),
    );
  });
});
