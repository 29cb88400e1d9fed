import { describe, expect, it } from 'vitest';
import { paymentsManifest } from '../../test/helpers/client-manifests.js';
import { validateToolArguments } from '../client/call/validate-tool-arguments.js';
import type { Manifest } from '../manifest/manifest-v0.js';
import { createCatalog, type CatalogTool } from './create-catalog.js';
import { exportTools } from './export-tools.js';
import { toManifestArguments } from './to-manifest-arguments.js';

function catalog(manifest: Manifest): CatalogTool[] {
  return createCatalog([
    {
      namespace: 'payments',
      origin: 'https://api.example.com',
      manifestUrl: 'https://api.example.com/m',
      manifest,
      grantedScopes: undefined,
      findings: [],
      quarantinedToolIds: [],
      disabledToolIds: [],
    },
  ]).tools;
}

describe('toManifestArguments', () => {
  const tools = catalog(paymentsManifest('https://api.example.com/v2'));
  const analyze = tools.find((tool) => tool.id === 'analyze_transactions')!;

  it('drops the nulls a strict model sends for options it leaves out, nested ones included, so the client accepts them', () => {
    const strictArguments = { account_id: '12345', cursor: null, date_range: { start: '2026-01-01', end: null }, limit: null };
    expect(() => validateToolArguments(analyze.definition, strictArguments)).toThrow(/\/cursor: must be string/);
    for (const format of ['openai-strict', 'openai-responses-strict'] as const) {
      const mapped = toManifestArguments(format, analyze, strictArguments);
      expect(mapped).toEqual({ account_id: '12345', date_range: { start: '2026-01-01' } });
      expect(() => validateToolArguments(analyze.definition, mapped)).not.toThrow();
    }
  });

  it('keeps a null the manifest itself allows, and a null for a required member (the validator names it)', () => {
    const manifest = paymentsManifest('https://api.example.com/v2');
    manifest.tools = [
      {
        id: 'set_note',
        path: '/notes',
        method: 'POST',
        description: 'Sets a note',
        parameters: { id: { type: 'string', required: true }, note: { type: 'string', json_schema: { type: ['string', 'null'] } } },
      },
    ];
    const [tool] = catalog(manifest);
    expect(toManifestArguments('openai-strict', tool!, { id: null, note: null })).toEqual({ id: null, note: null });
  });

  it('leaves arguments of other formats as they are (a copy), and gives {} for a call without arguments', () => {
    const args = { account_id: '12345', cursor: null };
    const mapped = toManifestArguments('openai', analyze, args);
    expect(mapped).toEqual(args);
    expect(mapped).not.toBe(args);
    expect(toManifestArguments('anthropic-strict', analyze, undefined)).toEqual({});
  });

  it('gives Gemini-renamed parameters their manifest names back, at every depth', () => {
    const manifest = paymentsManifest('https://api.example.com/v2');
    manifest.tools = [
      {
        id: 'update_file',
        path: '/files/{id}',
        method: 'PUT',
        description: 'Updates a file',
        parameters: {
          id: { type: 'string', required: true },
          'if-match': { type: 'string', in: 'header' },
          body: { type: 'object', json_schema: { type: 'object', properties: { 'content-md5': { type: 'string' } } } },
        },
      },
    ];
    const [tool] = catalog(manifest);
    const exported = exportTools([tool!], 'gemini').tools[0]!;
    expect(Object.keys(exported.parameters!['properties'] as object)).toEqual(['id', 'if_match', 'body']);
    const mapped = toManifestArguments('gemini', tool!, { id: 'f1', if_match: 'etag-1', body: { content_md5: 'abc' } });
    expect(mapped).toEqual({ id: 'f1', 'if-match': 'etag-1', body: { 'content-md5': 'abc' } });
    expect(() => validateToolArguments(tool!.definition, mapped)).not.toThrow();
  });

  it('refuses arguments that are not an object with INVALID_ARGUMENTS', () => {
    expect(() => toManifestArguments('openai', analyze, ['12345'])).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENTS', message: expect.stringContaining('must be a JSON object, got an array') }),
    );
  });

  it('refuses a misspelt format with INVALID_ARGUMENT instead of skipping the mapping without a word', () => {
    expect(() => toManifestArguments('gemeni' as never, analyze, { account_id: '12345' })).toThrow(
      expect.objectContaining({ name: 'AicapError', code: 'INVALID_ARGUMENT', message: expect.stringContaining('unknown export format "gemeni"; pass the format the tools were exported in') }),
    );
  });
});
