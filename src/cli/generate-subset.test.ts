import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../index.js';
import { loadYaml } from '../openapi/load-openapi-dependency.js';
import { excludedToolIds, overlayScaffold, withExcludedTools, type GenerateSubset } from './generate-subset.js';

let directory: string;
let description: string;

// Tools as `aicap generate` makes them from the description below (ids are the operationIds, except `v1_get_pods`).
const manifest = {
  tools: [
    { id: 'list_pods', method: 'GET', path: '/api/v1/pods', description: 'List pods.' },
    { id: 'create_pod', method: 'POST', path: '/api/v1/pods', description: 'Create a pod. It runs.' },
    { id: 'v1_get_pods', method: 'GET', path: '/api/v1beta/pods', description: 'Beta pods' },
    { id: 'list_deployments', method: 'GET', path: '/apis/apps/v1/deployments', description: 'Deployments\nsecond line' },
  ],
} as unknown as Manifest;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'aicap-generate-subset-'));
  description = join(directory, 'openapi.json');
  await writeFile(
    description,
    JSON.stringify({
      openapi: '3.1.0',
      paths: {
        '/api/v1/pods': {
          parameters: [],
          get: { operationId: 'list_pods', tags: ['Core', 7] },
          post: { operationId: 'createCorePod', tags: ['core'] },
        },
        '/api/v1beta/pods': { get: { tags: ['Beta'] } },
        '/apis/apps/v1/deployments': { get: { operationId: 'list_deployments', tags: 'apps' }, 'x-extension': null },
        '/broken': null,
      },
    }),
  );
});
afterAll(() => rm(directory, { recursive: true, force: true }));

const subset = (given: Partial<GenerateSubset>): GenerateSubset => ({ tags: [], paths: [], operations: [], ...given });

describe('excludedToolIds', () => {
  it.each([
    ['a tag, case-insensitive (non-string tags ignored)', { tags: ['CORE'] }, ['v1_get_pods', 'list_deployments']],
    ['a tag that is not a list matches nothing', { tags: ['apps'] }, ['list_pods', 'create_pod', 'v1_get_pods', 'list_deployments']],
    ['a path prefix at a segment boundary only', { paths: ['/api/v1'] }, ['v1_get_pods', 'list_deployments']],
    ['a path prefix with its final slash', { paths: ['/apis/apps/'] }, ['list_pods', 'create_pod', 'v1_get_pods']],
    ['an exact path', { paths: ['/api/v1beta/pods'] }, ['list_pods', 'create_pod', 'list_deployments']],
    ['a tool id', { operations: ['v1_get_pods'] }, ['list_pods', 'create_pod', 'list_deployments']],
    ['an operationId that differs from the tool id', { operations: ['createCorePod'] }, ['list_pods', 'v1_get_pods', 'list_deployments']],
    ['any filter matching keeps a tool', { tags: ['beta'], operations: ['list_deployments'] }, ['list_pods', 'create_pod']],
    ['no match leaves out every tool', { tags: ['nothing'] }, ['list_pods', 'create_pod', 'v1_get_pods', 'list_deployments']],
  ])('%s', async (_case, given, expected) => {
    expect(await excludedToolIds(description, manifest, subset(given))).toEqual(expected);
  });

  it('reads YAML descriptions too', async () => {
    const yaml = join(directory, 'openapi.yaml');
    await writeFile(yaml, 'openapi: 3.1.0\npaths:\n  /api/v1/pods:\n    get:\n      tags: [core]\n');
    expect(await excludedToolIds(yaml, manifest, subset({ tags: ['core'] }))).toEqual(['create_pod', 'v1_get_pods', 'list_deployments']);
  });

  it('matches only paths and tool ids for a URL description (it is not read again)', async () => {
    expect(await excludedToolIds('https://api.example.com/openapi.json', manifest, subset({ tags: ['core'], paths: ['/apis'] }))).toEqual(['list_pods', 'create_pod', 'v1_get_pods']);
  });

  it('matches nothing by tag in a document without paths', async () => {
    const empty = join(directory, 'empty.json');
    await writeFile(empty, 'null');
    expect(await excludedToolIds(empty, manifest, subset({ tags: ['core'], operations: ['list_pods'] }))).toEqual(['create_pod', 'v1_get_pods', 'list_deployments']);
  });
});

describe('withExcludedTools', () => {
  it('adds exclude to the overlay, keeping what the user wrote for those tools and the rest', () => {
    const overlay = { service: { name: 'Kept' }, tools: { list_pods: { description: 'Mine' }, create_pod: { description: 'Also mine' } } };
    expect(withExcludedTools(overlay, ['list_pods', 'v1_get_pods'])).toEqual({
      service: { name: 'Kept' },
      tools: { list_pods: { description: 'Mine', exclude: true }, create_pod: { description: 'Also mine' }, v1_get_pods: { exclude: true } },
    });
    // The user's overlay is not changed in place.
    expect(overlay.tools.list_pods).toEqual({ description: 'Mine' });
  });

  it('makes an overlay of its own when there is none', () => {
    expect(withExcludedTools(undefined, ['a'])).toEqual({ tools: { a: { exclude: true } } });
  });
});

describe('overlayScaffold', () => {
  it('writes a TODO intent per tool with the first sentence of its description', () => {
    const text = overlayScaffold(manifest);
    expect(text.startsWith('# Overlay scaffold: replace each TODO')).toBe(true);
    const parsed = loadYaml().parse(text) as { tools: Record<string, { intent: { when: string; avoid_when: string } }> };
    expect(Object.keys(parsed.tools)).toEqual(['list_pods', 'create_pod', 'v1_get_pods', 'list_deployments']);
    expect(parsed.tools['create_pod']!.intent).toEqual({ when: 'TODO: when should an agent call this? (Create a pod.)', avoid_when: 'TODO: when should it not?' });
    expect(parsed.tools['list_deployments']!.intent.when).toBe('TODO: when should an agent call this? (Deployments)');
  });

  it('cuts a summary at 200 characters and keeps YAML-special text quoted', () => {
    const long = { tools: [{ id: 'x', description: `: - # ${'a'.repeat(500)}` }] } as unknown as Manifest;
    const parsed = loadYaml().parse(overlayScaffold(long)) as { tools: { x: { intent: { when: string } } } };
    expect(parsed.tools.x.intent.when).toBe(`TODO: when should an agent call this? (: - # ${'a'.repeat(194)})`);
  });
});
