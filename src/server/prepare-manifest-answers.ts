import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { canonicalJson, digestText } from '../manifest/digest-manifest.js';
import { MANIFEST_MEDIA_TYPE, type Manifest } from '../manifest/manifest-v0.js';
import type { HttpAnswer } from './http-answer.js';
import { matchesIfNoneMatch } from './matches-if-none-match.js';
import { negotiateContentEncoding, type ContentCoding } from './negotiate-content-encoding.js';

/** The three answers of one representation (identity, br or gzip) of a manifest variant. */
interface Representation {
  readonly ok: HttpAnswer;
  readonly head: HttpAnswer;
  readonly notModified: HttpAnswer;
}

/**
 * Everything the manifest route sends for one manifest variant, built once: the canonical bytes, their
 * br and gzip forms (compressed off the main thread, once), and one strong ETag per representation.
 * @internal
 */
export interface PreparedManifest {
  /** The ETag of each representation; the identity one is the quoted digest. */
  readonly etags: Readonly<Record<ContentCoding, string>>;
  /** Settles when the compressed forms exist (never rejects: a failed compression serves identity). */
  readonly compressed: Promise<void>;
  /** The answer to a GET or HEAD with these headers; a promise only while compression runs. */
  answer(method: string, acceptEncoding: string | null, ifNoneMatch: string | null): HttpAnswer | Promise<HttpAnswer> | undefined;
}

const compressBrotli = promisify(brotliCompress);
const compressGzip = promisify(gzip);

// Brotli's best level costs seconds on multi-megabyte manifests; above these sizes a faster level keeps start-up short.
const BEST_LEVEL_UP_TO_BYTES = 1 << 20;

/**
 * Prepares the answers for one manifest. `headers` go into every answer (caching, CORS, `Vary`);
 * `Vary: Accept-Encoding` is added here. `answer` returns `undefined` when the client accepts none of
 * identity, br and gzip (the caller answers 406).
 * @internal
 */
export function prepareManifestAnswers(manifest: Manifest, headers: Readonly<Record<string, string>>): PreparedManifest {
  const text = canonicalJson(manifest);
  const digest = digestText(text);
  // Node `Buffer`s: `end()` on a Node socket takes them as they are, where a plain `Uint8Array` is wrapped on every write.
  const identityBytes = Buffer.from(text, 'utf8');
  const etags: Record<ContentCoding, string> = { identity: `"${digest}"`, br: `"${digest}-br"`, gzip: `"${digest}-gzip"` };
  const allTags = Object.values(etags);
  const vary = headers['Vary'] ? `${headers['Vary']}, Accept-Encoding` : 'Accept-Encoding';
  const build = (coding: ContentCoding, body: Uint8Array<ArrayBuffer>): Representation => {
    const notModifiedHeaders = { ...headers, Vary: vary, ETag: etags[coding] };
    const okHeaders: Record<string, string> = { ...notModifiedHeaders, 'Content-Type': MANIFEST_MEDIA_TYPE, 'Content-Length': String(body.byteLength) };
    if (coding !== 'identity') okHeaders['Content-Encoding'] = coding;
    return {
      ok: { status: 200, headers: okHeaders, body },
      head: { status: 200, headers: okHeaders, body: undefined },
      notModified: { status: 304, headers: notModifiedHeaders, body: undefined },
    };
  };
  const identity = build('identity', identityBytes);
  const representations: Record<ContentCoding, Representation | Promise<Representation>> = {
    identity,
    br: compressBrotli(identityBytes, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: identityBytes.byteLength <= BEST_LEVEL_UP_TO_BYTES ? constants.BROTLI_MAX_QUALITY : 9,
        [constants.BROTLI_PARAM_SIZE_HINT]: identityBytes.byteLength,
      },
    }).then(
      (bytes) => build('br', bytes),
      () => identity,
    ),
    gzip: compressGzip(identityBytes, { level: identityBytes.byteLength <= BEST_LEVEL_UP_TO_BYTES ? 9 : 6 }).then(
      (bytes) => build('gzip', bytes),
      () => identity,
    ),
  };
  const settle = (coding: 'br' | 'gzip'): Promise<void> =>
    (representations[coding] as Promise<Representation>).then((representation) => {
      representations[coding] = representation;
    });
  const compressed = Promise.all([settle('br'), settle('gzip')]).then(() => undefined);
  // A 304 needs no bytes, so it is known before compression ends.
  const notModified = {
    identity: identity.notModified,
    br: build('br', new Uint8Array()).notModified,
    gzip: build('gzip', new Uint8Array()).notModified,
  };

  return {
    etags,
    compressed,
    answer(method, acceptEncoding, ifNoneMatch) {
      const coding = negotiateContentEncoding(acceptEncoding);
      if (coding === undefined) return undefined;
      if (matchesIfNoneMatch(ifNoneMatch, allTags)) return notModified[coding];
      const representation = representations[coding];
      if (representation instanceof Promise) return representation.then((ready) => (method === 'HEAD' ? ready.head : ready.ok));
      return method === 'HEAD' ? representation.head : representation.ok;
    },
  };
}
