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
});
