import { MANIFEST_MEDIA_TYPE, WELL_KNOWN_PATH, type Manifest, type Tool, type Resource } from '../../manifest/manifest-v0.js';
import { parseManifest } from '../../manifest/parse-manifest.js';
import { defaultManifestMaxSizeInBytes } from '../../manifest/manifest-size-limit.js';
import { findSecretValues } from '../../manifest/find-secret-values.js';
import { AicapError } from '../../errors/aicap-error.js';
import { mediaTypeOf } from '../../internal/parse-media-type.js';
import { createGuardedFetch } from '../fetch/create-guarded-fetch.js';
import type { GuardedFetchOptions } from '../fetch/guarded-fetch-options.js';
import { checkOriginBinding } from '../trust/check-origin-binding.js';
import type { FetchFunction } from '../shapes/client-types.js';
import { checkAiCatalog } from './check-ai-catalog.js';
import { checkAuthEnforced, type AnonymousProbe } from './check-auth-enforced.js';
import { checkManifestResponse } from './check-manifest-response.js';
import { checkOAuthMetadata } from './check-oauth-metadata.js';
import { checkPoisoning } from './check-poisoning.js';
import { describeError as describe, type CheckOutcome, type CheckResult } from './check-result.js';
import { detectMcpServer } from './detect-mcp-server.js';

export type { CheckOutcome, CheckResult } from './check-result.js';

/** What {@link checkCapabilities} found. */
export interface CheckReport {
  /** The manifest URL checked. */
  url: string;
  /** True when no check failed. */
  ok: boolean;
  /** Every check in the order run. */
  checks: CheckResult[];
}

/** Options of {@link checkCapabilities}. */
export interface CheckCapabilitiesOptions {
  /** Bearer token sent with the manifest request (only to the manifest's origin). Tool endpoints are always probed without it. */
  token?: string;
  /** Probe GET tools and resources without credentials, expecting 401 + `WWW-Authenticate` when `auth` is declared. Never sends a consequential (non-GET) request. @default true */
  probeEndpoints?: boolean;
  /** Deadline of each request, in milliseconds. @default 10_000 */
  timeoutInMs?: number;
  /** Transport, for tests. @default the guarded fetch, trusting the origin given */
  fetch?: FetchFunction;
  /** Extra SSRF allow-list entries for the guarded fetch. @default [] */
  allow?: GuardedFetchOptions['allow'];
  /** Largest manifest accepted, in bytes after decompression. @default defaultManifestMaxSizeInBytes (8 MiB), the limit every reader applies */
  maxManifestSizeInBytes?: number;
  /**
  Longest time, in seconds, the manifest's `Cache-Control` (`max-age` or `s-maxage`, plus
  `stale-while-revalidate` and `stale-if-error`) may let a client keep offering a withdrawn tool
  before `http.revocation_window` warns (spec section 8.8). The default is the top of the `max-age`
  range section 5 recommends.

  @default 86400
  */
  maxStaleInSeconds?: number;
}

/** The implementation of `checkCapabilities`, loaded on its first call (its TSDoc is on the export in `client/on-demand-exports.ts`). @internal */
export async function checkCapabilities(originOrUrl: string, options: CheckCapabilitiesOptions = {}): Promise<CheckReport> {
  const url = toManifestUrl(originOrUrl);
  const origin = new URL(url).origin;
  const timeoutInMs = options.timeoutInMs ?? 10_000;
  const fetch =
    options.fetch ??
    createGuardedFetch({
      timeouts: { totalInMs: timeoutInMs },
      maxResponseSizeInBytes: (options.maxManifestSizeInBytes ?? defaultManifestMaxSizeInBytes) + 1,
      allow: options.allow ?? [],
      isTrustedOrigin: (candidate) => candidate === origin,
    });
  const checks: CheckResult[] = [];
  const add = (id: string, outcome: CheckOutcome, message: string): void => void checks.push({ id, outcome, message });
  const authorization: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};

  let response: Response;
  let bytes: Uint8Array;
  try {
    response = await fetch(url, { headers: { accept: `${MANIFEST_MEDIA_TYPE}, application/json;q=0.9`, origin: 'https://aicap-check.invalid', ...authorization } });
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    add('manifest.fetch', 'fail', `GET ${url} failed: ${describe(error)}`);
    await detectMcpServer(originOrUrl, fetch, add);
    return { url, ok: false, checks };
  }
  const contentType = mediaTypeOf(response.headers.get('content-type'));
  if (response.status !== 200 || contentType === 'application/mcp-server-card+json') {
    const challenge = response.headers.get('www-authenticate');
    const found = response.status === 200 ? 'is an MCP Server Card, not a manifest' : `answered ${response.status}${challenge ? ` (WWW-Authenticate: ${challenge}; pass --token)` : ''}; expected 200`;
    add('manifest.status', 'fail', `GET ${url} ${found}`);
    // A missing manifest on an MCP server is a different situation than a broken API: say which it is.
    await detectMcpServer(originOrUrl, fetch, add);
    return { url, ok: false, checks };
  }
  add('manifest.status', 'pass', `GET ${url} answered 200 (${bytes.byteLength} bytes)`);

  if (contentType === MANIFEST_MEDIA_TYPE) add('manifest.media_type', 'pass', `Content-Type is ${MANIFEST_MEDIA_TYPE}`);
  else if (contentType === 'application/json') add('manifest.media_type', 'warn', `Content-Type is application/json; serve ${MANIFEST_MEDIA_TYPE}`);
  else add('manifest.media_type', 'fail', `Content-Type is "${contentType || 'missing'}"; serve ${MANIFEST_MEDIA_TYPE}`);

  const result = parseManifest(bytes, { maxSizeInBytes: options.maxManifestSizeInBytes ?? defaultManifestMaxSizeInBytes });
  const errors = result.issues.filter((issue) => issue.severity === 'error');
  const warnings = result.issues.filter((issue) => issue.severity === 'warning');
  if (!result.valid || !result.manifest) {
    add(
      'manifest.valid',
      'fail',
      `invalid: ${errors
        .slice(0, 5)
        .map((issue) => `${issue.pointer || '/'} ${issue.code}`)
        .join(', ')}${errors.length > 5 ? ` and ${errors.length - 5} more` : ''}; run \`aicap validate ${url}\``,
    );
    // The HTTP behaviour and the catalog do not depend on the document: report them too.
    await checkManifestResponse({
      url,
      response,
      manifest: undefined,
      fetch,
      add,
      authorization,
      ...(options.maxStaleInSeconds === undefined ? {} : { maxStaleInSeconds: options.maxStaleInSeconds }),
    });
    await checkAiCatalog(url, fetch, add);
    return { url, ok: false, checks };
  }
  add(
    'manifest.valid',
    warnings.length > 0 ? 'warn' : 'pass',
    warnings.length > 0
      ? `valid, with ${warnings.length} warning(s): ${warnings
          .slice(0, 3)
          .map((issue) => `${issue.pointer} ${issue.code}`)
          .join(', ')}`
      : `valid against spec v${result.manifest.schema_version}`,
  );
  const manifest = result.manifest;

  const secrets = findSecretValues(manifest);
  if (secrets.length > 0) add('manifest.no_secrets', 'fail', `secret-looking values at ${secrets.map((finding) => `${finding.pointer} (${finding.kind})`).join(', ')}; a manifest is public`);
  else add('manifest.no_secrets', 'pass', 'no secret-looking values');
  checkPoisoning(manifest, add);

  try {
    checkOriginBinding(url, manifest.service.base_url, new Set());
    add('manifest.origin_binding', 'pass', `service.base_url ${manifest.service.base_url} shares the manifest's origin`);
  } catch (error) {
    add('manifest.origin_binding', 'fail', describe(error));
  }

  await checkManifestResponse({ url, response, manifest, fetch, add, authorization, ...(options.maxStaleInSeconds === undefined ? {} : { maxStaleInSeconds: options.maxStaleInSeconds }) });

  const probes = options.probeEndpoints === false ? undefined : await probeEndpoints(manifest, fetch, add);
  checkAuthEnforced(manifest, probes, add);
  await checkOAuthMetadata(manifest, fetch, add);
  await checkAiCatalog(url, fetch, add);

  return { url, ok: !checks.some((check) => check.outcome === 'fail'), checks };
}

/** Probes read-only tools and resources without credentials; returns what each answered. */
async function probeEndpoints(manifest: Manifest, fetch: FetchFunction, add: (id: string, outcome: CheckOutcome, message: string) => void): Promise<AnonymousProbe[]> {
  const authDeclared = manifest.auth !== undefined && manifest.auth.type !== 'none';
  const readOnly: Array<Tool | Resource> = [...manifest.tools.filter((tool) => tool.method === 'GET' || tool.method === 'HEAD'), ...(manifest.resources ?? [])];
  const skipped = manifest.tools.length - manifest.tools.filter((tool) => tool.method === 'GET' || tool.method === 'HEAD').length;
  if (skipped > 0) add('endpoints.consequential', 'skip', `${skipped} consequential (non-GET) tool(s) not probed: a check never causes side effects`);
  const probed = readOnly.slice(0, 50);
  const refused: Array<{ id: string; outcome: CheckOutcome; status: number; target: string; message: string }> = [];
  const answered: AnonymousProbe[] = [];
  for (const entry of probed) {
    // Placeholders get an inert value: the probe only looks at how an unauthenticated request is refused.
    const path = entry.path.replace(/\{[^{}]+\}/g, 'aicap-check');
    const target = joinUrl(manifest.service.base_url, path);
    try {
      const answer = await fetch(target, { headers: { accept: 'application/json' } });
      await answer.body?.cancel();
      answered.push({ id: entry.id, target, status: answer.status });
      const id = `endpoint.${entry.id}`;
      if (!authDeclared) add(id, answer.status < 500 ? 'pass' : 'warn', `GET ${target} answered ${answer.status}`);
      else if (answer.status === 401) {
        const challenge = answer.headers.get('www-authenticate');
        add(
          id,
          challenge ? 'pass' : 'fail',
          challenge
            ? `GET ${target} without credentials: 401, WWW-Authenticate: ${challenge}`
            : `GET ${target} answered 401 without WWW-Authenticate; add the challenge so clients can start authorization`,
        );
      } else if (answer.status >= 200 && answer.status < 300) add(id, 'warn', `GET ${target} answered ${answer.status} without credentials although auth is declared`);
      else
        refused.push({
          id,
          outcome: answer.status >= 500 ? 'fail' : 'warn',
          status: answer.status,
          target,
          message: `GET ${target} without credentials answered ${answer.status}; expected 401 with WWW-Authenticate`,
        });
    } catch (error) {
      add(`endpoint.${entry.id}`, 'fail', `GET ${target} failed: ${describe(error)}`);
    }
  }
  reportRefusedProbes(refused, probed.length, add);
  return answered;
}

/**
 * Probes refused with the same status are one finding, not one line per tool: a preview such as
 * `aicap serve` (the manifest only) answers 404 for every tool, and fifty identical lines would
 * bury the rest of the report.
 */
function reportRefusedProbes(
  refused: ReadonlyArray<{ id: string; outcome: CheckOutcome; status: number; target: string; message: string }>,
  probedCount: number,
  add: (id: string, outcome: CheckOutcome, message: string) => void,
): void {
  const byStatus = new Map<number, typeof refused>();
  for (const probe of refused) byStatus.set(probe.status, [...(byStatus.get(probe.status) ?? []), probe]);
  for (const [status, group] of byStatus) {
    if (group.length === 1) {
      add(group[0]!.id, group[0]!.outcome, group[0]!.message);
      continue;
    }
    const examples = group
      .slice(0, 2)
      .map((probe) => `GET ${probe.target}`)
      .join(', ');
    const more = group.length > 2 ? `, and ${group.length - 2} more` : '';
    const noTools =
      status === 404 && group.length === probedCount
        ? ': this server serves none of the tools its manifest declares (a preview such as `aicap serve` serves the manifest only), so the probes say nothing about the API itself'
        : '';
    add(
      'endpoints.probe',
      group[0]!.outcome,
      `${group.length} of ${probedCount} read-only tools answered ${status} without credentials (${examples}${more}); expected 401 with WWW-Authenticate${noTools}`,
    );
  }
}

function toManifestUrl(originOrUrl: string): string {
  let url: URL;
  try {
    url = new URL(originOrUrl);
  } catch {
    throw new AicapError('INVALID_ARGUMENT', `"${originOrUrl}" is not an absolute URL; give an origin such as https://api.example.com`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new AicapError('INVALID_ARGUMENT', `Scheme "${url.protocol}" is not supported; use http or https`);
  return url.pathname === '/' || url.pathname === '' ? `${url.origin}${WELL_KNOWN_PATH}` : url.href;
}

function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}
