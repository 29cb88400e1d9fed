import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { catalogOf } from '../../../test/helpers/catalog-of.js';
import { smallManifest } from '../../../test/helpers/client-manifests.js';
import { ORDER_TOOLS as ORDERS } from '../../../test/helpers/order-tools.js';
import type { Tool } from '../../manifest/manifest-v0.js';
import type { CatalogTool } from '../create-catalog.js';
import { MAX_DESCRIPTION_LENGTH } from './describe-operation.js';
import { indexFor, lowerBound, toolsFingerprint } from './tool-index.js';
import { stemWord } from './split-words.js';

type ToolSpec = Partial<Tool> & { id: string; description: string };
const shop = (tools: readonly ToolSpec[]): CatalogTool[] => catalogOf(smallManifest('shop', 'https://api.example.com', [...tools]));

describe('indexFor', () => {
  const tools = shop(ORDERS);
  const index = indexFor(tools);

  it('reads what each tool does: its action class, its resource and whether it acts on one item', () => {
    expect(index.tools.map((tool) => tool.actionClass)).toEqual(['read', 'read', 'delete', 'create']);
    expect(index.tools.map((tool) => tool.itemEndpoint)).toEqual([false, true, true, false]);
    for (const tool of index.tools) expect(tool.objectTerms).toContain(stemWord('order'));
  });

  it('indexes parameter names and avoid_when terms for the scorer', () => {
    expect(index.tools[1]!.parameterText).toContain(` ${stemWord('order')}`);
    expect(index.tools[1]!.avoidTerms.has(stemWord('refund'))).toBe(true);
    expect(index.tools[0]!.avoidTerms.size).toBe(0);
  });

  it('posts each term for the tools that contain it, and leaves stop words and numbers out', () => {
    const postings = index.postings.get(stemWord('cancel'))!;
    expect([...postings.filter((_, at) => at % 2 === 0)]).toEqual([2]);
    expect(postings[1]).toBeGreaterThan(0);
    for (const word of ['the', 'of', 'a', '1']) expect(index.postings.has(stemWord(word))).toBe(false);
    expect(index.sortedTerms).toEqual([...index.postings.keys()].sort());
    expect(index.inverseFrequency.get(stemWord('cancel'))!).toBeGreaterThan(index.inverseFrequency.get(stemWord('order'))!);
  });

  it('builds once per array, and shares the index with a new array of the same tools', () => {
    expect(indexFor(tools)).toBe(index);
    expect(indexFor([...tools])).toBe(index);
    expect(indexFor(shop(ORDERS))).toBe(index);
  });

  it('builds a new index when a tool the index reads changed', () => {
    const changed = shop(ORDERS.map((tool) => (tool.id === 'create_order' ? { ...tool, description: 'Places a new purchase.' } : tool)));
    const other = indexFor(changed);
    expect(other).not.toBe(index);
    expect(other.postings.has(stemWord('purchase'))).toBe(true);
    expect(index.postings.has(stemWord('purchase'))).toBe(false);
  });

  it('keeps only the last few shared indexes, so that catalogs built and dropped do not pile up', () => {
    const first = shop([{ id: 'first_tool', description: 'The first one.' }]);
    const firstIndex = indexFor(first);
    for (let count = 0; count < 9; count++) indexFor(shop([{ id: `tool_${count}`, description: `Number ${count}.` }]));
    expect(indexFor(first)).toBe(firstIndex);
    expect(indexFor([...first])).not.toBe(firstIndex);
  });

  it('indexes a tool with a huge description in bounded time, reading only its first part', () => {
    const huge = `Reads the ledger. ${'word '.repeat(200_000)}zebra`;
    const started = performance.now();
    const built = indexFor(shop([{ id: 'read_ledger', description: huge }]));
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(built.postings.has(stemWord('ledger'))).toBe(true);
    expect(built.postings.has(stemWord('zebra'))).toBe(false);
  });
});

describe('toolsFingerprint', () => {
  it('is the same for equal lists and differs with the order, a path or a parameter name', () => {
    const base = toolsFingerprint(shop(ORDERS));
    expect(toolsFingerprint(shop(ORDERS))).toBe(base);
    expect(toolsFingerprint(shop([...ORDERS].reverse()))).not.toBe(base);
    expect(toolsFingerprint(shop(ORDERS.map((tool, at) => (at === 0 ? { ...tool, path: '/purchases' } : tool))))).not.toBe(base);
    expect(toolsFingerprint(shop(ORDERS.map((tool, at) => (at === 0 ? { ...tool, parameters: { state: { type: 'string' as const } } } : tool))))).not.toBe(base);
  });

  it('ignores the part of a description the index never reads', () => {
    const long = 'x'.repeat(MAX_DESCRIPTION_LENGTH);
    expect(toolsFingerprint(shop([{ id: 'a', description: `${long}one` }]))).toBe(toolsFingerprint(shop([{ id: 'a', description: `${long}two` }])));
  });

  it('is the SHA-256 of the texts NUL-separated, as the indexes persisted by earlier versions were keyed', () => {
    const [tool] = shop([{ id: 'a', description: 'Lists orders. ✓' }]);
    const texts = ['1', tool!.name, tool!.id, tool!.method, tool!.path, 'Lists orders. ✓', Object.keys(tool!.definition.parameters ?? {}).join(','), ''];
    expect(toolsFingerprint([tool!])).toBe(createHash('sha256').update(texts.join('\u0000')).digest('base64url'));
    // With an intent: its when, then each example trigger, then avoid_when.
    const [described] = shop([
      { id: 'b', description: 'Refunds an order.', intent: { when: 'The customer wants money back.', avoid_when: 'The order is unpaid.' }, example_trigger: ['refund order 7', 'give money back'] },
    ]);
    const describedTexts = ['1', described!.name, 'b', described!.method, described!.path, 'Refunds an order.', Object.keys(described!.definition.parameters ?? {}).join(',')];
    const withIntent = [...describedTexts, 'The customer wants money back.', 'refund order 7', 'give money back', 'The order is unpaid.'];
    expect(toolsFingerprint([described!])).toBe(createHash('sha256').update(withIntent.join('\u0000')).digest('base64url'));
  });

  it('tells an empty list from a list of one', () => {
    expect(toolsFingerprint([])).not.toBe(toolsFingerprint(shop([{ id: 'a', description: 'A.' }])));
  });
});

describe('lowerBound', () => {
  const sorted = ['apple', 'star', 'stargazer', 'starred', 'zoo'];

  it('finds the first term not below the one looked for', () => {
    expect(lowerBound(sorted, 'star')).toBe(1);
    expect(lowerBound(sorted, 'stara')).toBe(2);
    expect(lowerBound(sorted, 'a')).toBe(0);
    expect(lowerBound(sorted, 'zzz')).toBe(5);
    expect(lowerBound([], 'x')).toBe(0);
  });
});
