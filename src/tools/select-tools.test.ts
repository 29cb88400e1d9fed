import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { paymentsManifest } from '../../test/helpers/client-manifests.js';
import type { DiscoveredService } from '../client/shapes/client-types.js';
import type { Manifest } from '../manifest/manifest-v0.js';
import { generateManifest } from '../openapi/index.js';
import { createCatalog, type CatalogTool } from './create-catalog.js';
import { selectTools } from './select-tools.js';

function catalogOf(manifest: Manifest): CatalogTool[] {
  const service: DiscoveredService = {
    namespace: 'svc',
    origin: 'https://api.example.com',
    manifestUrl: 'https://api.example.com/m',
    manifest,
    digest: 'sha256-x',
    grantedScopes: undefined,
    findings: [],
    quarantinedToolIds: [],
    disabledToolIds: [],
  };
  return createCatalog([service]).tools;
}

const top = (tools: readonly CatalogTool[], request: string, limit = 5): string[] => selectTools(tools, request, { limit }).map((selected) => selected.tool.id);

describe('selectTools on the Payments manifest', () => {
  const tools = catalogOf(paymentsManifest('https://api.example.com/v2'));

  it.each([
    ['Show me unusual transactions on account 12345 this month', 'analyze_transactions'],
    ['what did I pay at the bakery yesterday', 'list_transactions'],
    ['please terminate my account', 'close_account'],
    ['lower my withdrawal limit', 'modify_limits'],
    ['I need a statement for last quarter as a PDF', 'generate_report'],
  ])('ranks the right tool first for %j', (request, expected) => {
    expect(top(tools, request)[0]).toBe(expected);
  });

  it('does not let an argument value or a word every tool shares decide: "suspicious payments on account 12345"', () => {
    // `close_account`'s example is "Close account 12345" and its id contains "account", which every
    // Payments tool mentions; neither says what the request is about.
    const ranked = selectTools(tools, 'Are there suspicious payments on account 12345?');
    expect(ranked[0]?.tool.id).toBe('list_transactions');
    const closeAccount = ranked.find((selected) => selected.tool.id === 'close_account');
    expect(closeAccount?.score ?? 0).toBeLessThan(ranked[0]!.score / 2);
  });

  it('penalises a tool whose avoid_when matches the request', () => {
    const request = 'future projections of my spending patterns';
    const penalised = selectTools(tools, request).find((selected) => selected.tool.id === 'analyze_transactions');
    const unpenalised = selectTools(tools, request, { avoidPenalty: 0 }).find((selected) => selected.tool.id === 'analyze_transactions');
    expect(unpenalised).toBeDefined();
    expect(penalised?.score ?? 0).toBeLessThan(unpenalised!.score);
  });

  it('is deterministic and returns at most `limit` tools', () => {
    const first = selectTools(tools, 'account transactions', { limit: 3 });
    expect(selectTools(tools, 'account transactions', { limit: 3 })).toEqual(first);
    expect(first.length).toBe(3);
  });

  it('returns the best candidates of a small catalog even when nothing matches, and nothing with smallCatalogSize 0', () => {
    const ranked = selectTools(tools, 'quantum chromodynamics', { limit: 3 });
    expect(ranked.map((selected) => selected.score)).toEqual([0, 0, 0]);
    expect(selectTools(tools, 'quantum chromodynamics', { smallCatalogSize: 0 })).toEqual([]);
  });

  it('maps everyday verbs to API verbs (invite → add, remove → delete) at a lower weight', () => {
    const manifest = paymentsManifest('https://api.example.com/v2');
    manifest.tools = [
      // Named so that a tie would put browse_collaborators first: only the verb mapping can decide.
      { id: 'browse_collaborators', path: '/collaborators', method: 'GET', description: 'Lists the collaborators of a project' },
      { id: 'grant_collaborator', path: '/collaborators', method: 'PUT', description: 'Adds a collaborator to a project' },
      { id: 'delete_collaborator', path: '/collaborators/{name}', method: 'DELETE', description: 'Deletes a collaborator from a project', parameters: { name: { type: 'string', required: true } } },
    ];
    manifest.auth = { type: 'bearer' };
    manifest.policy = {};
    const collaborators = catalogOf(manifest);
    expect(top(collaborators, 'invite a collaborator to the project')[0]).toBe('grant_collaborator');
    expect(top(collaborators, 'remove that collaborator')[0]).toBe('delete_collaborator');
  });

  it('tells the object of a request from its context, and names from keywords', () => {
    const manifest = paymentsManifest('https://api.example.com/v2');
    manifest.tools = [
      { id: 'delete_project', path: '/projects/{project_gid}', method: 'DELETE', description: 'Delete a project', parameters: { project_gid: { type: 'string', required: true } } },
      {
        id: 'remove_members',
        path: '/projects/{project_gid}/removeMembers',
        method: 'POST',
        description: 'Remove users from a project',
        parameters: { project_gid: { type: 'string', required: true } },
      },
      { id: 'get_user', path: '/users/{user_gid}', method: 'GET', description: 'Get a user', parameters: { user_gid: { type: 'string', required: true } } },
      { id: 'get_user_teams', path: '/users/{user_gid}/teams', method: 'GET', description: 'Get the teams of a user', parameters: { user_gid: { type: 'string', required: true } } },
    ];
    manifest.auth = { type: 'bearer' };
    manifest.policy = {};
    const projects = catalogOf(manifest);
    // "Dana" is no word of the catalog: a person, so the users are removed, not the project.
    expect(top(projects, 'remove Dana from project 4545')[0]).toBe('remove_members');
    expect(top(projects, 'delete project 4545')[0]).toBe('delete_project');
    // "the profile of user 9001": the profile is a property, the user is what is read.
    expect(top(projects, 'show me the profile of user 9001')[0]).toBe('get_user');
  });

  it('refuses a bad limit with INVALID_OPTION', () => {
    expect(() => selectTools(tools, 'x', { limit: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining('`limit`') }));
  });

  it.each([
    ['undefined', undefined, /got undefined/],
    ['a number', 42, /got number/],
    ['null', null, /got null/],
  ])('refuses a request that is %s with INVALID_ARGUMENT instead of a TypeError', (_label, request, message) => {
    expect(() => selectTools(tools, request as never)).toThrow(expect.objectContaining({ name: 'AicapError', code: 'INVALID_ARGUMENT', message: expect.stringMatching(message) }));
  });

  it('refuses a catalog instead of its tools, and null, with INVALID_ARGUMENT naming what to pass', () => {
    expect(() => selectTools({ tools } as never, 'close my account')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('a catalog (pass its .tools)') }));
    expect(() => selectTools(null as never, 'close my account')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('client.catalog().tools') }));
  });

  it('refuses bad avoidPenalty and smallCatalogSize options with INVALID_OPTION naming them', () => {
    expect(() => selectTools(tools, 'x', { avoidPenalty: Number.NaN })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining('`avoidPenalty`') }));
    expect(() => selectTools(tools, 'x', { smallCatalogSize: -1 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining('`smallCatalogSize`') }));
  });

  it('ranks nothing, and does not throw, for an empty catalog or a request of only spaces and symbols', () => {
    expect(selectTools([], 'close my account')).toEqual([]);
    expect(selectTools(tools, '   ?!…  ', { smallCatalogSize: 0 })).toEqual([]);
  });

  it('ranks a request of 100,000 characters without hanging, still finding the tool it names', () => {
    const long = `${'please '.repeat(14_000)}close my account`;
    const started = performance.now();
    expect(top(tools, long)[0]).toBe('close_account');
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('orders equal scores by the health of the service, never above a better score', () => {
    const health = (tool: CatalogTool): 'ok' | 'degraded' | 'maintenance' | undefined => (tool.id === 'list_transactions' ? 'maintenance' : undefined);
    const plain = selectTools(tools, 'zzzz', { limit: 5 });
    const withHealth = selectTools(tools, 'zzzz', { limit: 5, health });
    expect(plain.every((selected) => selected.score === 0)).toBe(true);
    expect(withHealth.at(-1)!.tool.id).toBe('list_transactions');
    expect(withHealth.map((selected) => selected.tool.id).sort()).toEqual(plain.map((selected) => selected.tool.id).sort());
    expect(selectTools(tools, 'what did I pay at the bakery yesterday', { health })[0]!.tool.id).toBe('list_transactions');
  });
});

const GITHUB = join(import.meta.dirname, '../../../shared/corpus/big/github-api.github.com-2020-07.json');
if (!existsSync(GITHUB)) console.info(`selectTools corpus test skipped: ${GITHUB} is not on this machine (the corpus lives in ../shared).`);

describe.skipIf(!existsSync(GITHUB))('selectTools on a large real description (GitHub REST, corpus)', () => {
  let tools: CatalogTool[];
  beforeAll(async () => {
    const { manifest } = await generateManifest({ input: GITHUB, strict: false });
    tools = catalogOf(manifest);
  }, 120_000);

  // Requests written for this test (not copied from the summaries), with the operation that answers each.
  const queries: Array<[string, string]> = [
    ['open a new bug report in my repository', 'issues/create'],
    ['merge this pull request', 'pulls/merge'],
    ['fork the repository into my account', 'repos/create-fork'],
    ['publish a new release v2.0 of the project', 'repos/create-release'],
    ['show me the README of the project', 'repos/get-readme'],
    ['who are the members of our organization', 'orgs/list-members'],
    ['star this repository for me', 'activity/star-repo-for-authenticated-user'],
    ['search the source code for a function name', 'search/code'],
    ['re-run the failed workflow', 'actions/re-run-workflow'],
    ['add the bug label to issue 42', 'issues/add-labels'],
    ['comment on issue 12 saying thanks', 'issues/create-comment'],
    ['compare two commits to see what changed', 'repos/compare-commits'],
    ['delete this repository permanently', 'repos/delete'],
    ['create a webhook for push events on the repo', 'repos/create-webhook'],
    ['what is the license of this repo', 'licenses/get-for-repo'],
    ['invite a collaborator to the repository', 'repos/add-collaborator'],
    ['list my notifications', 'activity/list-notifications-for-authenticated-user'],
    ['create a gist with this snippet', 'gists/create'],
    ['get the profile of user octocat', 'users/get-by-username'],
    ['store an encrypted secret for GitHub Actions in the repository', 'actions/create-or-update-repo-secret'],
    ['open a pull request from my feature branch', 'pulls/create'],
    ['create a team in the organization', 'teams/create'],
  ];

  it('reaches a recall@5 of at least 0.9 on a written query set', () => {
    const ids = new Set(tools.map((tool) => tool.id));
    let hits = 0;
    const misses: string[] = [];
    for (const [request, operationId] of queries) {
      const expected = operationId.replace('/', '_');
      expect(ids.has(expected), `${expected} exists in the generated manifest`).toBe(true);
      const ranked = top(tools, request);
      if (ranked.includes(expected)) hits++;
      else misses.push(`${request} → ${ranked.join(', ')} (wanted ${expected})`);
    }
    const recall = hits / queries.length;
    console.info(`selectTools recall@5 on GitHub REST (${tools.length} tools): ${recall.toFixed(2)} (${hits}/${queries.length})${misses.length ? `\nmisses:\n${misses.join('\n')}` : ''}`);
    expect(recall).toBeGreaterThanOrEqual(0.9);
  });
});

describe('selectTools on a three-tool todo catalog (the newcomer review)', () => {
  const manifest = paymentsManifest('https://api.example.com/v2');
  manifest.tools = [
    { id: 'list_todos', path: '/todos', method: 'GET', description: 'Lists the items of the todo list' },
    { id: 'create_todo', path: '/todos', method: 'POST', description: 'Adds an item to the todo list', parameters: { title: { type: 'string', required: true } } },
    { id: 'delete_todo', path: '/todos/{id}', method: 'DELETE', description: 'Deletes an item from the todo list', parameters: { id: { type: 'string', required: true } } },
  ];
  manifest.auth = { type: 'bearer' };
  manifest.policy = {};
  delete manifest.resources;
  const todos = catalogOf(manifest);

  it.each([
    ['add "buy milk" to my list', 'create_todo'],
    ['remind me to call mum', 'create_todo'],
    ['what do I have to do today?', 'list_todos'],
    ['get rid of the dentist item', 'delete_todo'],
  ])('%j ranks %s first', (request, expected) => {
    expect(top(todos, request)[0]).toBe(expected);
  });

  it('never returns nothing from a small catalog', () => {
    expect(selectTools(todos, 'zzz qqq').length).toBe(3);
  });
});
