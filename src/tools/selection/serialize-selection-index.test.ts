import { describe, expect, it } from 'vitest';
import { paymentsManifest } from '../../../test/helpers/client-manifests.js';
import type { DiscoveredService } from '../../client/shapes/client-types.js';
import { AicapError } from '../../errors/aicap-error.js';
import type { Manifest } from '../../manifest/manifest-v0.js';
import { createCatalog, type CatalogTool } from '../create-catalog.js';
import { selectTools } from '../select-tools.js';
import { restoreSelectionIndex, serializeSelectionIndex } from './serialize-selection-index.js';
import { indexFor } from './tool-index.js';

function catalogOf(manifest: Manifest, grantedScopes?: readonly string[]): CatalogTool[] {
  const service: DiscoveredService = {
    namespace: 'svc',
    origin: 'https://api.example.com',
    manifestUrl: 'https://api.example.com/m',
    manifest,
    digest: 'sha256-x',
    grantedScopes,
    findings: [],
    quarantinedToolIds: [],
    disabledToolIds: [],
  };
  return createCatalog([service]).tools;
}

const requests = ['what did I pay at the bakery yesterday', 'please terminate my account', 'lower my withdrawal limit', 'I need a statement for last quarter as a PDF'];
const ranking = (tools: readonly CatalogTool[], request: string) => selectTools(tools, request, { limit: 5 }).map(({ tool, score }) => [tool.id, score]);

describe('serializeSelectionIndex / restoreSelectionIndex', () => {
  it('restores, through JSON, an index that ranks exactly as the one built, without building one', () => {
    const built = catalogOf(paymentsManifest('https://api.example.com/v2'));
    const data = JSON.parse(JSON.stringify(serializeSelectionIndex(built))) as unknown;
    // A fresh manifest object and catalog array, as in a new process.
    const restored = catalogOf(paymentsManifest('https://api.example.com/v2'));
    expect(restoreSelectionIndex(restored, data)).toBe(true);
    const index = indexFor(restored);
    for (const request of requests) expect(ranking(restored, request)).toEqual(ranking(built, request));
    expect(indexFor(restored)).toBe(index);
  });

  it('shares one index between arrays of the same tools, and builds another when the tools differ', () => {
    const first = catalogOf(paymentsManifest('https://api.example.com/v2'));
    const second = catalogOf(paymentsManifest('https://api.example.com/v2'));
    expect(indexFor(second)).toBe(indexFor(first));
    const edited = paymentsManifest('https://api.example.com/v2');
    edited.tools[0]!.description = `${edited.tools[0]!.description} Also mentions refunds.`;
    expect(indexFor(catalogOf(edited)).fingerprint).not.toBe(indexFor(first).fingerprint);
  });

  it('refuses, changing nothing, the index of other tools (another manifest, fewer tools)', () => {
    const tools = catalogOf(paymentsManifest('https://api.example.com/v2'));
    const data = serializeSelectionIndex(tools);
    const fewer = tools.slice(1);
    expect(restoreSelectionIndex(fewer, data)).toBe(false);
    expect(indexFor(fewer).tools).toHaveLength(fewer.length);
  });

  it('takes data in the format of an earlier version for stale, not corrupt: false, and the index is built on first use', () => {
    const tools = catalogOf(paymentsManifest('https://api.example.com/v2'));
    for (const format of ['aicap-selection-index/1', 'aicap-selection-index/2']) expect(restoreSelectionIndex(tools, { ...serializeSelectionIndex(tools), format })).toBe(false);
    expect(indexFor(tools).tools).toHaveLength(tools.length);
  });

  it.each([
    [null, '/format'],
    [{ format: 'other' }, '/format'],
    [{ format: 'aicap-selection-index/3' }, '/fingerprint'],
  ])('throws INVALID_ARGUMENT naming the wrong part of %j', (data, pointer) => {
    const tools = catalogOf(paymentsManifest('https://api.example.com/v2'));
    expect(() => restoreSelectionIndex(tools, data)).toThrow(AicapError);
    expect(() => restoreSelectionIndex(tools, data)).toThrow(pointer);
  });

  it('refuses tampered data whose fingerprint matches: a posting past the last tool, a wrong tool entry', () => {
    const tools = catalogOf(paymentsManifest('https://api.example.com/v2'));
    const data = serializeSelectionIndex(tools);
    const outOfRange = structuredClone(data);
    // The first term's first posting: its count, then position and weight place.
    outOfRange.postings[1] = tools.length;
    expect(() => restoreSelectionIndex(tools, outOfRange)).toThrow('/postings/1');
    const noSuchWeight = structuredClone(data);
    noSuchWeight.postings[2] = data.weights.length;
    expect(() => restoreSelectionIndex(tools, noSuchWeight)).toThrow('/postings/1');
    const tooShort = structuredClone(data);
    tooShort.postings.length -= 2;
    expect(() => restoreSelectionIndex(tools, tooShort)).toThrow('/postings/');
    const tooLong = structuredClone(data);
    tooLong.postings.push(0);
    expect(() => restoreSelectionIndex(tools, tooLong)).toThrow('must end with the postings of the last term');
    const repeatedTerm = structuredClone(data);
    repeatedTerm.terms[1] = repeatedTerm.terms[0]!;
    expect(() => restoreSelectionIndex(tools, repeatedTerm)).toThrow('/terms');
    const zeroWeight = structuredClone(data);
    zeroWeight.weights[0] = 0;
    expect(() => restoreSelectionIndex(tools, zeroWeight)).toThrow('/weights');
    const badTool = structuredClone(data) as unknown as { tools: unknown[] };
    badTool.tools[2] = ['explode', [], [], false, '', false, [], []];
    expect(() => restoreSelectionIndex(tools, badTool)).toThrow('/tools/2');
  });
});
