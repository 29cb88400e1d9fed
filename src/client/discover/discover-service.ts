import { AicapError } from '../../errors/aicap-error.js';
import { HTTPError } from '../../errors/http-error.js';
import { ManifestValidationError } from '../../errors/manifest-validation-error.js';
import { digestManifest, digestTool } from '../../manifest/digest-manifest.js';
import { LINK_RELATION, MANIFEST_MEDIA_TYPE, WELL_KNOWN_PATH, type Manifest, type Prompt, type Resource, type Tool } from '../../manifest/manifest-v0.js';
import { DEFAULT_MAX_SIZE_IN_BYTES, parseJsonDocument, parseManifest } from '../../manifest/parse-manifest.js';
import { fetchWithCache, type CachedFetchResult } from '../cache/fetch-with-cache.js';
import type { ClientContext } from '../client-context.js';
import type { DiscoveredService, OriginCredentials, TrustFinding } from '../client-types.js';
import { DiscoveryError, type DiscoveryAttempt } from '../errors/discovery-error.js';
import { redactUrl } from '../redact-url.js';
import { checkOriginBinding } from '../trust/check-origin-binding.js';
import { diffManifests, type ManifestDiff } from '../../manifest/diff-manifests.js';
import type { ManifestChangeEvent } from '../trust/manifest-change-event.js';
import { scanManifest, type ScanManifestOptions } from '../trust/scan-manifest.js';
import { parseLinkHeader } from './parse-link-header.js';

/** Options of `client.discover`. */
export interface DiscoverOptions {
  /** Credentials for this origin. Sent with the manifest request (bearer token) and, by the call part, with calls to this exact origin only. */
  credentials?: OriginCredentials;
  /** Scopes the caller holds here; the catalog hides tools none of them unlock. Undefined: no filtering. */
  grantedScopes?: string[];
}

const AI_CATALOG_PATH = '/.well-known/ai-catalog.json';
// Statuses that mean "not here, try the next discovery step"; anything else is an answer.
const NOT_FOUND_STATUSES = new Set([404, 405, 406, 410, 501]);
const MAX_CATALOG_ENTRIES = 10;

/**
 * Finds, fetches, validates and checks the manifest for an origin (or a manifest URL), in this order:
 * `/.well-known/ai-capabilities`; a `Link: <…>; rel="ai-capabilities"` on the origin's response; the
 * entries of `/.well-known/ai-catalog.json`. Registers the result in the client, reports changes
 * against the previous version, applies pins and quarantine.
 * @internal
 */
export async function discoverService(context: ClientContext, originOrUrl: string | URL, options: DiscoverOptions = {}): Promise<DiscoveredService> {
  let target: URL;
  try {
    target = new URL(originOrUrl);
  } catch (error) {
    throw new AicapError('INVALID_OPTION', `\`discover\` needs an absolute URL such as https://api.example.com, got ${JSON.stringify(String(originOrUrl).slice(0, 200))}.`, { cause: error });
  }
  // What the user typed is trusted even on loopback or a private network; what manifests and
  // responses introduce is not (see the SSRF policy in guarded-fetch.ts).
  if (target.protocol === 'http:' || target.protocol === 'https:') context.trustedOrigins.add(target.origin);
  if (options.credentials) context.credentials.set(target.origin, options.credentials);
  const headers: Record<string, string> = { accept: `${MANIFEST_MEDIA_TYPE}, application/json;q=0.9` };
  const token = await bearerToken(options.credentials, target.origin);
  if (token !== undefined) headers['authorization'] = `Bearer ${token}`;

  const attempts: DiscoveryAttempt[] = [];
  const isOrigin = (target.pathname === '/' || target.pathname === '') && target.search === '';
  const candidates: Array<() => Promise<string[]>> = isOrigin
    ? [
        async () => [new URL(WELL_KNOWN_PATH, target).href],
        async () => linkedManifests(context, target, attempts),
        async () => catalogManifests(context, target, headers, attempts),
      ]
    : [async () => [target.href]];

  for (const candidate of candidates) {
    for (const url of await candidate()) {
      let result: CachedFetchResult;
      try {
        result = await fetchWithCache(context.manifestFetch, context.cache, url, sameOrigin(url, target) ? headers : { accept: headers['accept']! }, context.revalidating);
      } catch (error) {
        if (error instanceof HTTPError && NOT_FOUND_STATUSES.has(error.status)) {
          attempts.push({ url: redactUrl(url), reason: `status ${error.status}` });
          continue;
        }
        throw error;
      }
      const read = readManifestOnce(context, result);
      const manifestOrigin = new URL(result.url).origin;
      checkOriginBinding(result.url, read.manifest.service.base_url, context.allowedBaseOrigins);
      return register(context, read.manifest, { url: result.url, origin: manifestOrigin, source: result.source }, options, read);
    }
  }
  throw new DiscoveryError({ target: redactUrl(target), attempts });
}

async function bearerToken(credentials: OriginCredentials | undefined, origin: string): Promise<string | undefined> {
  if (!credentials) return undefined;
  if (credentials.token !== undefined) return credentials.token;
  if (credentials.tokenProvider) return credentials.tokenProvider({ origin, scopes: [], forceRefresh: false });
  return undefined;
}

function sameOrigin(url: string, target: URL): boolean {
  return new URL(url).origin === target.origin;
}

async function linkedManifests(context: ClientContext, target: URL, attempts: DiscoveryAttempt[]): Promise<string[]> {
  let response: Response;
  try {
    response = await context.manifestFetch(target.href, { method: 'GET', headers: { accept: '*/*' } });
  } catch (error) {
    if (AicapError.isInstance(error) && (error.code === 'SSRF_BLOCKED' || error.code === 'TIMEOUT')) throw error;
    attempts.push({ url: redactUrl(target), reason: error instanceof Error ? error.message : String(error) });
    return [];
  }
  await response.body?.cancel().catch(() => undefined);
  const links = parseLinkHeader(response.headers.get('link') ?? '').filter((link) => link.relations.includes(LINK_RELATION));
  if (links.length === 0) attempts.push({ url: redactUrl(target), reason: `no Link header with rel="${LINK_RELATION}"` });
  return links.slice(0, MAX_CATALOG_ENTRIES).flatMap((link) => {
    try {
      return [new URL(link.target, response.url || target).href];
    } catch {
      attempts.push({ url: redactUrl(target), reason: `invalid Link target ${JSON.stringify(link.target.slice(0, 200))}` });
      return [];
    }
  });
}

async function catalogManifests(context: ClientContext, target: URL, headers: Record<string, string>, attempts: DiscoveryAttempt[]): Promise<string[]> {
  const catalogUrl = new URL(AI_CATALOG_PATH, target).href;
  let result: CachedFetchResult;
  try {
    result = await fetchWithCache(context.manifestFetch, context.cache, catalogUrl, { ...headers, accept: 'application/ai-catalog+json, application/json;q=0.9' }, context.revalidating);
  } catch (error) {
    if (error instanceof HTTPError) {
      attempts.push({ url: redactUrl(catalogUrl), reason: `status ${error.status}` });
      return [];
    }
    throw error;
  }
  let catalog: unknown;
  try {
    catalog = parseJsonDocument(result.body);
  } catch (error) {
    attempts.push({ url: redactUrl(catalogUrl), reason: error instanceof Error ? error.message : 'invalid JSON' });
    return [];
  }
  const entries = typeof catalog === 'object' && catalog !== null && Array.isArray((catalog as { entries?: unknown }).entries) ? ((catalog as { entries: unknown[] }).entries) : [];
  const urls: string[] = [];
  for (const entry of entries) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { type, url } = entry as { type?: unknown; url?: unknown };
    if (typeof url !== 'string') continue;
    const declaresManifest = type === MANIFEST_MEDIA_TYPE || (type === undefined && url.includes(WELL_KNOWN_PATH));
    if (!declaresManifest) continue;
    try {
      urls.push(new URL(url, result.url).href);
    } catch {
      attempts.push({ url: redactUrl(catalogUrl), reason: `invalid entry URL ${JSON.stringify(url.slice(0, 200))}` });
    }
    if (urls.length >= MAX_CATALOG_ENTRIES) break;
  }
  if (urls.length === 0) attempts.push({ url: redactUrl(catalogUrl), reason: `no entry of type ${MANIFEST_MEDIA_TYPE}` });
  return urls;
}

/** A manifest as read from one response, with what depends only on its bytes. */
interface ReadManifest {
  /** The response body it was read from. */
  body: Uint8Array;
  /** The response's `Content-Type`, which reading checks. */
  contentType: string | null;
  manifest: Manifest;
  /** Findings of the scan without cross-service references (those depend on the other services). */
  scanFindings: readonly TrustFinding[];
  digest: string;
}

// The last manifest read per client and URL. Rediscovering an unchanged manifest (a cache hit or a
// 304, the common case) then skips parsing, validation, the poisoning scan and the digest, which
// would give the same results for the same bytes.
const lastReads = new WeakMap<ClientContext, Map<string, ReadManifest>>();

function readManifestOnce(context: ClientContext, result: CachedFetchResult): ReadManifest {
  let reads = lastReads.get(context);
  if (!reads) lastReads.set(context, (reads = new Map()));
  const contentType = result.headers.get('content-type');
  const known = reads.get(result.url);
  if (known && known.contentType === contentType && equalBytes(known.body, result.body)) return known;
  const manifest = readManifest(context, result);
  const read: ReadManifest = { body: result.body, contentType, manifest, scanFindings: scanManifest(manifest, scanOptions(context, [])).findings, digest: digestManifest(manifest) };
  reads.set(result.url, read);
  return read;
}

function equalBytes(left: Uint8Array, right: Uint8Array): boolean {
  if (left.byteLength !== right.byteLength) return false;
  for (let index = 0; index < left.byteLength; index++) if (left[index] !== right[index]) return false;
  return true;
}

function readManifest(context: ClientContext, result: CachedFetchResult): Manifest {
  const contentType = (result.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (contentType !== '' && contentType !== 'application/json' && !contentType.endsWith('+json')) {
    throw new AicapError(
      'MANIFEST_PARSE_FAILED',
      `Manifest at ${redactUrl(result.url)} has Content-Type ${JSON.stringify(contentType.slice(0, 100))}; expected ${MANIFEST_MEDIA_TYPE} or application/json. Serve the manifest as JSON.`,
    );
  }
  return parseOrThrow(result.body, redactUrl(result.url), { maxSizeInBytes: manifestSizeLimit(context), option: 'discovery.maxManifestSizeInBytes' });
}

/** The largest manifest a client accepts, and the option that sets it. */
interface ManifestSizeLimit {
  maxSizeInBytes: number;
  /** Named in the error, so that the message says which option to raise. */
  option: string;
}

function manifestSizeLimit(context: ClientContext): number {
  return context.options.discovery?.maxManifestSizeInBytes ?? DEFAULT_MAX_SIZE_IN_BYTES;
}

/** Parses and validates, turning issues into the matching typed error. */
function parseOrThrow(input: string | Uint8Array, label: string, limit: ManifestSizeLimit): Manifest {
  // The parser has its own cap (1 MiB by default): without the client's, raising the fetch cap alone
  // would let a large manifest be downloaded and then refused.
  const parsed = parseManifest(input, { warnUnknownFields: false, maxSizeInBytes: limit.maxSizeInBytes });
  if (!parsed.valid || !parsed.manifest) {
    if (parsed.issues.some((issue) => issue.code === 'json.too_large')) {
      throw new AicapError('MANIFEST_PARSE_FAILED', `Manifest at ${label} is larger than ${limit.maxSizeInBytes} bytes; raise \`${limit.option}\` if it is expected.`);
    }
    const unsupported = parsed.issues.find((issue) => issue.code === 'schema_version.unsupported');
    if (unsupported) throw new AicapError('MANIFEST_UNSUPPORTED_VERSION', `Manifest at ${label}: /schema_version ${unsupported.message}.`);
    const syntax = parsed.issues.find((issue) => issue.code.startsWith('json.'));
    if (syntax) throw new AicapError('MANIFEST_PARSE_FAILED', `Manifest at ${label}: ${syntax.message}`);
    throw new ManifestValidationError(parsed.issues, `Manifest at ${label}`);
  }
  return parsed.manifest;
}

/** Options of `client.load`. */
export interface LoadOptions extends DiscoverOptions {
  /**
  Where the manifest came from (a `file:` URL, say), used as its key and in messages. The service's
  origin, to which credentials and calls are bound, is the origin of its `service.base_url`.

  @default the `service.base_url` origin followed by /.well-known/ai-capabilities
  */
  source?: string;
  /**
  Largest manifest accepted, in bytes (of the text or bytes given; of its JSON text for an object).

  @default the client's `discovery.maxManifestSizeInBytes` (1 MiB unless set)
  */
  maxSizeInBytes?: number;
}

/**
 * Registers a manifest obtained out of band (a file, a bundled copy): parsed and validated like a
 * fetched one, scanned, checked against pins and compared with the previous version. There is no
 * fetch origin to bind `base_url` to, so the service is bound to the `base_url` origin itself.
 * @internal
 */
export async function loadService(context: ClientContext, input: string | Uint8Array | Manifest, options: LoadOptions = {}): Promise<DiscoveredService> {
  const label = options.source ?? 'the loaded manifest';
  const limit: ManifestSizeLimit =
    options.maxSizeInBytes === undefined ? { maxSizeInBytes: manifestSizeLimit(context), option: 'discovery.maxManifestSizeInBytes' } : { maxSizeInBytes: options.maxSizeInBytes, option: 'maxSizeInBytes' };
  if (!Number.isSafeInteger(limit.maxSizeInBytes) || limit.maxSizeInBytes < 1) {
    throw new AicapError('INVALID_OPTION', `\`${limit.option}\` of \`client.load\` must be an integer ≥ 1, got ${JSON.stringify(limit.maxSizeInBytes)}.`);
  }
  const manifest = parseOrThrow(typeof input === 'string' || input instanceof Uint8Array ? input : JSON.stringify(input), label, limit);
  let origin: string;
  try {
    origin = new URL(manifest.service.base_url).origin;
  } catch (error) {
    throw new AicapError('MANIFEST_INVALID', `Manifest at ${label}: /service/base_url is not an absolute URL.`, { cause: error });
  }
  const manifestUrl = options.source ?? new URL(WELL_KNOWN_PATH, origin).href;
  if (options.credentials) context.credentials.set(origin, options.credentials);
  return register(context, manifest, { url: manifestUrl, origin, source: 'loaded' }, options);
}

/** The digest a pin records: the entry plus what governs it elsewhere in the manifest (base URL, scopes, policy). @internal */
export function pinDigest(manifest: Manifest, entry: Tool | Resource | Prompt): string {
  const scopes = Object.entries(manifest.auth?.scopes ?? {})
    .filter(([, ids]) => ids.includes(entry.id))
    .map(([scope]) => scope)
    .sort();
  return digestTool({
    entry,
    base_url: manifest.service.base_url,
    scopes,
    human_approval_required: (manifest.policy?.human_approval_required ?? []).includes(entry.id),
    redact_from_logs: [...(manifest.policy?.redact_from_logs ?? [])].sort(),
  });
}

/** `origin|id`: the key of a pin and of a quarantine override. @internal */
export function pinKey(origin: string, id: string): string {
  return `${origin}|${id}`;
}

/** Where a manifest to register came from. */
interface ManifestSource {
  /** Key of the service: the manifest URL (or the label of a loaded manifest). */
  url: string;
  /** Origin credentials and calls are bound to. */
  origin: string;
  /** How it was obtained, for the audit trail. */
  source: CachedFetchResult['source'] | 'loaded';
}

async function register(context: ClientContext, manifest: Manifest, result: ManifestSource, options: DiscoverOptions, read?: ReadManifest): Promise<DiscoveredService> {
  const manifestUrl = result.url;
  const origin = result.origin;
  const previous = context.services.get(manifestUrl);
  // Cross-service references are added by refreshCrossReferences once the service is registered.
  const findings: TrustFinding[] = read ? [...read.scanFindings] : scanManifest(manifest, scanOptions(context, [])).findings;
  const digest = read?.digest ?? digestManifest(manifest);
  const diff = previous && previous.digest !== digest ? diffManifests(previous.manifest, manifest) : undefined;
  const entryIds = new Set([...manifest.tools, ...(manifest.resources ?? []), ...(manifest.prompts ?? [])].map((entry) => entry.id));
  // Policy weakening is always flagged; a tool that lost its approval requirement is held back until a human looks.
  for (const change of diff?.changes.filter((candidate) => candidate.weakened) ?? []) {
    const losesApproval = change.kind === 'policy' && change.oldPointer === '/policy/human_approval_required' && change.id !== undefined && entryIds.has(change.id);
    findings.push({
      code: change.kind === 'policy' ? 'policy.weakened' : `${change.kind}.weakened`,
      pointer: change.newPointer ?? change.oldPointer ?? '',
      text: change.message,
      severity: losesApproval ? 'high' : 'medium',
      message: change.message,
      ...(losesApproval ? { toolId: change.id! } : {}),
    });
  }

  const disabledToolIds: string[] = [];
  const entries = [...manifest.tools, ...(manifest.resources ?? []), ...(manifest.prompts ?? [])];
  for (const entry of entries) {
    const pinned = await context.pins.get(pinKey(origin, entry.id));
    if (pinned === undefined || pinned === pinDigest(manifest, entry)) continue;
    disabledToolIds.push(entry.id);
    const changes = diff?.changes.filter((candidate) => candidate.id === entry.id || candidate.kind === 'service') ?? [];
    const what = changes.length > 0 ? changes.map((candidate) => candidate.message).join('; ') : 'its definition, base URL, scopes or policy changed';
    findings.push({ code: 'tool.pin_mismatch', pointer: pointerOf(manifest, entry.id), text: entry.id, severity: 'high', message: `"${entry.id}" differs from the approved version (${what}); disabled until \`client.approve('${entry.id}')\``, toolId: entry.id });
  }

  const service: DiscoveredService = {
    namespace: previous?.namespace ?? chooseNamespace(context, manifest, manifestUrl),
    origin,
    manifestUrl,
    manifest,
    digest,
    grantedScopes: options.grantedScopes ?? previous?.grantedScopes,
    findings,
    quarantinedToolIds: quarantinedIds(context, origin, findings),
    disabledToolIds,
  };
  context.services.set(manifestUrl, service);
  refreshCrossReferences(context);
  context.emitAudit({ type: 'discovery', origin, url: redactUrl(manifestUrl), detail: `${result.source}; ${manifest.tools.length} tools; digest ${digest}` });
  for (const finding of context.services.get(manifestUrl)!.findings) {
    if (finding.severity !== 'low') context.emitAudit({ type: 'trust.finding', origin, ...(finding.toolId === undefined ? {} : { toolId: finding.toolId }), detail: `${finding.code} ${finding.pointer}: ${finding.message}` });
  }
  if (previous && diff) {
    const event: ManifestChangeEvent = {
      origin,
      manifestUrl,
      namespace: service.namespace,
      previousDigest: previous.digest,
      digest,
      previousVersion: previous.manifest.versioning?.current,
      version: manifest.versioning?.current,
      ...summarize(diff),
    };
    for (const listener of context.changeListeners) {
      try {
        listener(event);
      } catch {
        // A failing listener must not undo a discovery that succeeded.
      }
    }
  }
  return context.services.get(manifestUrl)!;
}

/** The event's id lists, from the classified changes of tools, resources and prompts. */
function summarize(diff: ManifestDiff): Pick<ManifestChangeEvent, 'added' | 'removed' | 'changed' | 'changes' | 'weakened' | 'breaking' | 'trustSensitive'> {
  const entryChanges = diff.changes.filter((change) => change.kind === 'tool' || change.kind === 'resource' || change.kind === 'prompt');
  // A whole entry appearing or disappearing points at `/tools/N`; deeper pointers are changes inside one.
  const ids = (type: 'added' | 'removed'): string[] =>
    entryChanges.filter((change) => change.change === type && (change.newPointer ?? change.oldPointer ?? '').split('/').length === 3).map((change) => change.id!);
  const added = ids('added');
  const removed = ids('removed');
  const changed = [...new Set(entryChanges.map((change) => change.id!).filter((id) => !added.includes(id) && !removed.includes(id)))];
  return { added, removed, changed, changes: diff.changes, weakened: diff.changes.filter((change) => change.weakened), breaking: diff.breaking, trustSensitive: diff.trustSensitive };
}

function scanOptions(context: ClientContext, foreignToolIds: string[]): ScanManifestOptions {
  const maxTextLength = context.options.trust?.maxTextLength;
  return maxTextLength === undefined ? { foreignToolIds } : { foreignToolIds, maxTextLength };
}

/** Tools with a high-severity scan finding, minus the caller's overrides (pin mismatches disable, they do not quarantine). */
function quarantinedIds(context: ClientContext, origin: string, findings: readonly TrustFinding[]): string[] {
  const overrides = new Set(context.options.trust?.allowQuarantined ?? []);
  const ids = findings.filter((finding) => finding.severity === 'high' && finding.toolId !== undefined && finding.code !== 'tool.pin_mismatch').map((finding) => finding.toolId!);
  return [...new Set(ids)].filter((id) => !overrides.has(id) && !overrides.has(pinKey(origin, id)));
}

// Findings that depend on which other services are loaded, recomputed whenever that set changes.
const CROSS_SERVICE_CODES = new Set(['text.cross_service_reference', 'tool.confusable_id']);

/**
 * Re-checks every loaded service for texts that name another loaded service's tools and for look-alike
 * ids (tool shadowing, RELIABILITY case 4). Run whenever the set of services changes, so the order of
 * discovery does not matter.
 */
function refreshCrossReferences(context: ClientContext): void {
  const services = [...context.services.values()];
  for (const service of services) {
    const foreign = services.filter((other) => other !== service).flatMap((other) => other.manifest.tools.map((tool) => tool.id));
    const isCross = (finding: TrustFinding): boolean => CROSS_SERVICE_CODES.has(finding.code);
    const cross = foreign.length === 0 ? [] : scanManifest(service.manifest, scanOptions(context, foreign)).findings.filter(isCross);
    const findings = [...service.findings.filter((finding) => !isCross(finding)), ...cross];
    context.services.set(service.manifestUrl, { ...service, findings, quarantinedToolIds: quarantinedIds(context, service.origin, findings) });
  }
}

function pointerOf(manifest: Manifest, id: string): string {
  const toolIndex = manifest.tools.findIndex((tool) => tool.id === id);
  if (toolIndex >= 0) return `/tools/${toolIndex}`;
  const resourceIndex = (manifest.resources ?? []).findIndex((resource) => resource.id === id);
  if (resourceIndex >= 0) return `/resources/${resourceIndex}`;
  return `/prompts/${(manifest.prompts ?? []).findIndex((prompt) => prompt.id === id)}`;
}

/** A short namespace from the service name ("Payments API" → `payments`), unique among loaded services. */
function chooseNamespace(context: ClientContext, manifest: Manifest, manifestUrl: string): string {
  const base =
    manifest.service.name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .replace(/_api$/, '')
      .slice(0, 24)
      .replace(/_+$/, '') || new URL(manifestUrl).hostname.replace(/[^a-z0-9]+/gi, '_').slice(0, 24);
  const namespace = /^[a-z]/.test(base) ? base : `s_${base}`.slice(0, 24);
  const taken = new Set([...context.services.values()].filter((service) => service.manifestUrl !== manifestUrl).map((service) => service.namespace));
  if (!taken.has(namespace)) return namespace;
  for (let suffix = 2; ; suffix++) if (!taken.has(`${namespace}${suffix}`)) return `${namespace}${suffix}`;
}
