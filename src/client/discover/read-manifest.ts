import { AicapError } from '../../errors/aicap-error.js';
import { optionTerm, worded } from '../../errors/message-term.js';
import { ManifestValidationError } from '../../errors/manifest-validation-error.js';
import { isJsonMediaType, mediaTypeOf } from '../../internal/parse-media-type.js';
import { digestParsedBody, sha256Base64url } from '../../manifest/digest-manifest.js';
import { oneByteJsonText } from '../../manifest/one-byte-json-text.js';
import { MANIFEST_MEDIA_TYPE, type Manifest } from '../../manifest/manifest-v0.js';
import type { JsonReading } from '../../manifest/parse-json-fast.js';
import { readManifestDocument } from '../../manifest/parse-manifest.js';
import { defaultManifestMaxSizeInBytes } from '../../manifest/manifest-size-limit.js';
import type { CachedFetchResult } from '../cache/fetch-with-cache.js';
import type { DiscoveryContext } from './discovery-context.js';
import type { TrustFinding } from '../shapes/client-types.js';
import { redactUrl } from '../../internal/http/redact-url.js';
import { scanOptionsOf } from '../trust/cross-service-findings.js';
import { scanManifest } from '../../manifest/scan-manifest.js';
import { lookUpVerdicts, storeVerdicts, verdictSlotOf } from './verified-manifest-cache.js';

/** A manifest as read from one response, with what depends only on its bytes. @internal */
export interface ReadManifest {
  /** The response body it was read from. */
  body: Uint8Array;
  /** The response's `Content-Type`, which reading checks. */
  contentType: string | null;
  manifest: Manifest;
  /** Findings of the whole-manifest scan without cross-service references (those depend on the other services); empty unless `trust.scan` is `'eager'`. */
  scanFindings: readonly TrustFinding[];
  digest: string;
}

/** The largest manifest a client accepts, and the option that sets it. @internal */
export interface ManifestSizeLimit {
  maxSizeInBytes: number;
  /** Named in the error, so that the message says which option to raise. */
  option: string;
}

const utf8 = new TextDecoder();

/**
 * Parses, validates, digests (and with `trust.scan: 'eager'` scans) a fetched manifest, or returns the previous read of the same
 * URL when the bytes are the same: the very same bytes (a cache hit hands them back by identity) or
 * equal ones (`Buffer.equals`, native, for a 200 with an unchanged body). Bytes this client has not
 * read at that URL are looked up in the verified-manifest cache (`trust.verifiedManifests`): a known
 * body costs `JSON.parse` and the lookup; an unknown one gets every check, and its verdicts are stored.
 * @internal
 */
export async function readManifestOnce(context: DiscoveryContext, result: CachedFetchResult): Promise<ReadManifest> {
  // Rediscovering an unchanged manifest (a cache hit or a 304, the common case) skips parsing,
  // validation, the poisoning scan and the digest, which would give the same results for the same bytes.
  const reads = context.discoveryMemo.lastReads;
  const contentType = result.headers.get('content-type');
  const known = reads.get(result.url);
  if (known && known.contentType === contentType && sameBytes(known.body, result.body)) return known;
  checkContentType(result);
  const limit = manifestSizeLimit(context);
  const scanOptions = scanOptionsOf(context.options.trust);
  const eager = isEagerScan(context);
  // Hashed once: the key of the verdicts, and the digest itself when the body is canonical text.
  const bodySha256 = result.body.byteLength <= limit.maxSizeInBytes ? sha256Base64url(result.body) : undefined;
  // The scan mode is part of the key: a record stored without the scan must not stand for one with it.
  // So is when entries are validated: a record of the manifest-level checks must not stand for one of every check.
  const slot = bodySha256 === undefined ? undefined : verdictSlotOf(context, bodySha256, `${limit.maxSizeInBytes}|${scanOptions.maxTextLength ?? ''}${eager ? '' : '|on-export|entries-on-use'}`);
  const verdicts = slot && (await lookUpVerdicts(slot));
  let read: ReadManifest;
  if (verdicts) {
    // Same bytes, same verdicts: the strict reader accepted exactly this text, so `JSON.parse` gives its value.
    const manifest = JSON.parse(knownJsonText(result.body)) as Manifest;
    read = { body: result.body, contentType, manifest, scanFindings: verdicts.scanFindings, digest: verdicts.digest };
  } else {
    const { manifest, reading } = parseOrThrow(result.body, () => redactUrl(result.url), limit, eager ? 'all' : 'deferred');
    // First, on the value as parsed from these very bytes: that is what the reading describes.
    const digest = digestParsedBody(result.body, reading, bodySha256);
    // With the default `trust.scan: 'on-export'`, texts are scanned where they reach a model instead.
    const scanFindings = eager ? scanManifest(manifest, scanOptions).findings : [];
    read = { body: result.body, contentType, manifest, scanFindings, digest };
    if (slot) await storeVerdicts(slot, { digest, scanFindings });
  }
  reads.set(result.url, read);
  return read;
}

/** The text of bytes the strict reader accepted before, one byte per character where it can be. */
function knownJsonText(body: Uint8Array): string {
  const oneByte = oneByteJsonText(body);
  if (oneByte !== undefined) return oneByte.text;
  const text = utf8.decode(body);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function sameBytes(left: Uint8Array, right: Uint8Array): boolean {
  return left === right || (left.byteLength === right.byteLength && Buffer.from(left.buffer, left.byteOffset, left.byteLength).equals(right));
}

function checkContentType(result: CachedFetchResult): void {
  const contentType = mediaTypeOf(result.headers.get('content-type'));
  if (contentType !== '' && !isJsonMediaType(contentType)) {
    throw new AicapError(
      'MANIFEST_PARSE_FAILED',
      `Manifest at ${redactUrl(result.url)} has Content-Type ${JSON.stringify(contentType.slice(0, 100))}; expected ${MANIFEST_MEDIA_TYPE} or application/json. Serve the manifest as JSON.`,
    );
  }
}

/** True when discovery runs the whole poisoning scan (`trust.scan: 'eager'`). @internal */
export function isEagerScan(context: Pick<DiscoveryContext, 'options'>): boolean {
  return context.options.trust?.scan === 'eager';
}

/** The client-wide manifest cap. @internal */
export function manifestSizeLimit(context: Pick<DiscoveryContext, 'options'>): ManifestSizeLimit {
  return { maxSizeInBytes: context.options.discovery?.maxManifestSizeInBytes ?? defaultManifestMaxSizeInBytes, option: 'discovery.maxManifestSizeInBytes' };
}

/** A valid manifest and what reading its text saw. @internal */
export interface ManifestReading {
  manifest: Manifest;
  reading: JsonReading;
}

/**
 * Parses and validates, turning issues into the matching typed error. With `entries: 'deferred'` (the
 * default `trust.scan: 'on-export'`), only the manifest-level checks run here and each tool, resource
 * and prompt is validated where it is first used (`applyModelScanPolicy`); the validators load with the
 * client, since those uses (an export, a selection) are synchronous.
 * @internal
 */
export function parseOrThrow(input: string | Uint8Array, labelOf: string | (() => string), limit: ManifestSizeLimit, entries: 'all' | 'deferred'): ManifestReading {
  // The parser has its own cap (1 MiB by default): without the client's, raising the fetch cap alone
  // would let a large manifest be downloaded and then refused.
  const { result: parsed, reading } = readManifestDocument(input, { warnUnknownFields: false, maxSizeInBytes: limit.maxSizeInBytes }, entries);
  if (!parsed.valid || !parsed.manifest || reading === undefined) {
    // Only a message names the manifest: a redacted URL is parsed and written again, so it is made here.
    const label = typeof labelOf === 'string' ? labelOf : labelOf();
    if (parsed.issues.some((issue) => issue.code === 'json.too_large')) {
      throw new AicapError('MANIFEST_PARSE_FAILED', worded`Manifest at ${label} is larger than ${limit.maxSizeInBytes} bytes; raise ${optionTerm(limit.option)} if it is expected.`);
    }
    const unsupported = parsed.issues.find((issue) => issue.code === 'schema_version.unsupported');
    if (unsupported) throw new AicapError('MANIFEST_UNSUPPORTED_VERSION', `Manifest at ${label}: /schema_version ${unsupported.message}.`);
    const syntax = parsed.issues.find((issue) => issue.code.startsWith('json.'));
    if (syntax) throw new AicapError('MANIFEST_PARSE_FAILED', `Manifest at ${label}: ${syntax.message}`);
    throw new ManifestValidationError(parsed.issues, `Manifest at ${label}`);
  }
  return { manifest: parsed.manifest, reading };
}
