import { describe, expect, it } from 'vitest';
import { paymentsManifest } from '../../test/helpers/client-manifests.js';
import type { DiscoveredService } from '../client/shapes/client-types.js';
import { createCatalog, type CatalogTool } from './create-catalog.js';
import { createToolSearch } from './create-tool-search.js';
import { EXPORT_FORMATS } from './export-tools.js';

function paymentsTools(): CatalogTool[] {
  const service: DiscoveredService = {
    namespace: 'svc',
    origin: 'https://api.example.com',
    manifestUrl: 'https://api.example.com/m',
    manifest: paymentsManifest('https://api.example.com/v2'),
    digest: 'sha256-x',
    grantedScopes: undefined,
    findings: [],
    quarantinedToolIds: [],
    disabledToolIds: [],
  };
  return createCatalog([service]).tools;
}

describe('createToolSearch', () => {
  it.each(EXPORT_FORMATS)('exports the search tool first, then the pinned and found tools, in %s', (format) => {
    const search = createToolSearch({ tools: paymentsTools(), pinned: ['close_account'], limit: 1 });
    const before = JSON.stringify(search.export(format).tools);
    expect(before).toContain('search_tools');
    expect(before).toContain('close_account');
    expect(before).not.toContain('list_transactions');
    search.search('list the transactions of an account');
    const after = JSON.stringify(search.export(format).tools);
    expect(after.indexOf('search_tools')).toBeLessThan(after.indexOf('list_transactions'));
    expect(after).toContain('query');
  });

  it('tells the model to search again when nothing fits or the query is empty, and bounds what stays loaded', () => {
    const search = createToolSearch({ tools: paymentsTools(), limit: 1, maxLoaded: 2 });
    expect(search.search('').text).toMatch(/needs a query/);
    expect(search.search({ query: 'x' }).found).toEqual([]);
    expect(search.search('zzzz qqqq').text).toMatch(/search again/i);
    for (const query of ['list the transactions', 'close my account', 'change my withdrawal limit']) search.search(query);
    expect(search.loaded().map((tool) => tool.name)).toEqual(['close_account', 'modify_limits']);
  });

  it('refuses a pinned name that is no tool, and a search name that is a tool', () => {
    expect(() => createToolSearch({ tools: paymentsTools(), pinned: ['nope'] })).toThrow(/pinned.*"nope"/);
    expect(() => createToolSearch({ tools: paymentsTools(), name: 'list_transactions' })).toThrow(/name of a catalog tool/);
  });

  it('refuses missing or wrong options with INVALID_OPTION naming the option, instead of a TypeError', () => {
    expect(() => createToolSearch(undefined as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining('`options` option of createToolSearch') }));
    expect(() => createToolSearch({} as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', option: 'tools', message: expect.stringContaining('array of catalog tools') }));
    expect(() => createToolSearch({ tools: paymentsTools(), pinned: 'close_account' as never })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', option: 'pinned' }));
    expect(() => createToolSearch({ tools: paymentsTools(), limit: 51 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', option: 'limit', message: expect.stringContaining('1 to 50') }));
    expect(() => createToolSearch({ tools: paymentsTools(), maxLoaded: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', option: 'maxLoaded' }));
    expect(() => createToolSearch({ tools: paymentsTools(), name: 'search tools!' })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining('1–64 letters') }));
  });

  it('finds the right tool first, and reports as added only what was not loaded already', () => {
    const search = createToolSearch({ tools: paymentsTools(), pinned: ['close_account'], limit: 2 });
    const first = search.search('lower my withdrawal limit');
    expect(first.found[0]!.name).toBe('modify_limits');
    expect(first.added.map((tool) => tool.name)).not.toContain('close_account');
    expect(first.text).toMatch(/^Loaded for your next step \(best first\):\n- modify_limits: /);
    const again = search.search('lower my withdrawal limit');
    expect(again.found.map((tool) => tool.name)).toEqual(first.found.map((tool) => tool.name));
    expect(again.added).toEqual([]);
    expect(search.loaded()[0]!.name).toBe('close_account');
  });

  it('searches only the first 1,000 characters of a long query, and never echoes it whole', () => {
    const search = createToolSearch({ tools: paymentsTools() });
    const result = search.search(`${'q'.repeat(5_000)} close my account`);
    // Only the first 1,000 characters are ranked: "close my account" is past them, so it does not lead.
    expect(result.found[0]?.name).not.toBe('close_account');
    expect(result.text).not.toContain('q'.repeat(201));
    expect(result.text.length).toBeLessThan(1_000);
  });

  it('runs the extra scan after its own, and never hands over a tool the extra scan refused', () => {
    const seen: string[][] = [];
    const search = createToolSearch({
      tools: paymentsTools(),
      scan: (tools) => {
        seen.push(tools.map((tool) => tool.name));
        return tools.filter((tool) => tool.name !== 'close_account');
      },
    });
    const result = search.search('please terminate my account');
    expect(seen.at(-1)).toContain('close_account');
    expect(result.found.map((tool) => tool.name)).not.toContain('close_account');
    expect(JSON.stringify(search.export('openai').tools)).not.toContain('close_account');
  });

  it('describes its single string input so every format can call it', () => {
    const search = createToolSearch({ tools: paymentsTools(), name: 'find_tools' });
    expect(search.inputSchema).toEqual({ type: 'object', properties: { query: expect.objectContaining({ type: 'string' }) }, required: ['query'], additionalProperties: false });
    expect(search.description).toContain('5 tools can be found');
    const [tool] = search.export('anthropic').tools;
    expect(tool).toMatchObject({ name: 'find_tools', input_schema: { required: ['query'] } });
  });
});
