import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { canonicalJson, digestManifest } from '../manifest/digest-manifest.js';
import type { Manifest } from '../manifest/manifest-v0.js';
import type { HttpAnswer } from './http-answer.js';
import { prepareManifestAnswers } from './prepare-manifest-answers.js';

const manifest = JSON.parse(readFileSync(new URL('../../examples/payments/payments.manifest.json', import.meta.url), 'utf8')) as Manifest;

describe('prepareManifestAnswers', () => {
  it('tags each representation and answers 304 for any of them before compression has finished', () => {
    const prepared = prepareManifestAnswers(manifest, { 'Cache-Control': 'public, max-age=300' });
    const digest = digestManifest(manifest);
    expect(prepared.etags).toEqual({ identity: `"${digest}"`, br: `"${digest}-br"`, gzip: `"${digest}-gzip"` });
    // Synchronous: a 304 needs no compressed bytes.
    const notModified = prepared.answer('GET', 'br', `"${digest}-gzip"`) as HttpAnswer;
    expect(notModified.status).toBe(304);
    expect(notModified.headers).toMatchObject({ ETag: `"${digest}-br"`, Vary: 'Accept-Encoding', 'Cache-Control': 'public, max-age=300' });
    expect(prepared.answer('GET', 'identity;q=0, *;q=0', null)).toBeUndefined();
  });

  it('compresses once: later answers are synchronous, decode to the canonical text, and HEAD has the same length', async () => {
    const prepared = prepareManifestAnswers(manifest, { Vary: 'Authorization' });
    await prepared.compressed;
    for (const [coding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const ok = prepared.answer('GET', coding, null) as HttpAnswer;
      expect(ok).not.toBeInstanceOf(Promise);
      expect(ok.headers).toMatchObject({ 'Content-Encoding': coding, Vary: 'Authorization, Accept-Encoding', 'Content-Length': String(ok.body?.byteLength) });
      expect(decode(ok.body as Uint8Array).toString('utf8')).toBe(canonicalJson(manifest));
      expect(prepared.answer('GET', coding, null)).toBe(ok);
      const head = prepared.answer('HEAD', coding, null) as HttpAnswer;
      expect(head.body).toBeUndefined();
      expect(head.headers['Content-Length']).toBe(ok.headers['Content-Length']);
    }
    const identity = prepared.answer('GET', null, null) as HttpAnswer;
    expect(identity.headers['Content-Encoding']).toBeUndefined();
    expect(new TextDecoder().decode(identity.body)).toBe(canonicalJson(manifest));
  });
});
