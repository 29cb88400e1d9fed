import { digestManifest } from '../../manifest/digest-manifest.js';
import type { Manifest } from '../../manifest/manifest-v0.js';
import type { FetchFunction } from '../shapes/client-types.js';
import { describeError, type AddCheck } from './check-result.js';
import { checkRevocationWindow, DEFAULT_MAX_STALE_IN_SECONDS } from './check-revocation-window.js';

/** What {@link checkManifestResponse} looks at. @internal */
export interface ManifestResponseInput {
  url: string;
  /** The answer to the first GET. */
  response: Response;
  /** The manifest when it was valid; without it the identity form's ETag is not compared with the digest (`http.etag_is_digest`). */
  manifest: Manifest | undefined;
  fetch: FetchFunction;
  add: AddCheck;
  /** Headers the manifest request carried (a token), sent again on the follow-up requests. */
  authorization: Record<string, string>;
  /** Longest time the manifest's caching may keep a withdrawn tool offered before a warning, in seconds. */
  maxStaleInSeconds?: number;
}

/**
 * The HTTP checks of the manifest's answer, which hold whether or not the document is valid, so a
 * checker goes on after a failed validation: no `Set-Cookie`, CORS, `Cache-Control` (private when
 * the answer varies on `Authorization`), a strong ETag answered 304, HEAD, and for a compressed
 * answer `Vary: Accept-Encoding` with an ETag of its own (spec sections 3, 4 and 5).
 * @internal
 */
export async function checkManifestResponse(input: ManifestResponseInput): Promise<void> {
  const { url, response, fetch, add, authorization } = input;
  if (response.headers.has('set-cookie')) add('http.no_set_cookie', 'fail', 'the manifest response sets a cookie; remove Set-Cookie from the route');
  else add('http.no_set_cookie', 'pass', 'no Set-Cookie');

  const allowOrigin = response.headers.get('access-control-allow-origin');
  add('http.cors', allowOrigin ? 'pass' : 'warn', allowOrigin ? `Access-Control-Allow-Origin: ${allowOrigin}` : 'no Access-Control-Allow-Origin: browser-based agents cannot read the manifest');
  await checkPreflight(input);

  const cacheControl = response.headers.get('cache-control');
  const perCredential = (response.headers.get('vary') ?? '').toLowerCase().includes('authorization');
  if (perCredential) {
    const isPrivate = /(^|,)\s*private\b/i.test(cacheControl ?? '');
    add(
      'http.per_credential_private',
      isPrivate ? 'pass' : 'fail',
      isPrivate
        ? `Vary: Authorization with Cache-Control: ${cacheControl}`
        : `Vary: Authorization with Cache-Control "${cacheControl ?? ''}": a per-credential manifest must be Cache-Control: private`,
    );
  }
  if (!cacheControl) add('http.cache_control', 'warn', 'no Cache-Control: clients cannot tell how long the manifest stays fresh');
  else add('http.cache_control', /max-age=\d+/i.test(cacheControl) ? 'pass' : 'warn', `Cache-Control: ${cacheControl}`);
  checkRevocationWindow(cacheControl, input.maxStaleInSeconds ?? DEFAULT_MAX_STALE_IN_SECONDS, add);

  const etag = response.headers.get('etag');
  if (!etag) add('http.etag', 'warn', 'no ETag: clients must download the whole manifest to revalidate');
  else {
    const strong = !etag.startsWith('W/');
    add('http.etag', strong ? 'pass' : 'warn', `ETag ${etag}${strong ? '' : ' is weak'}`);
    try {
      const conditional = await fetch(url, { headers: { 'if-none-match': etag, ...authorization } });
      await conditional.body?.cancel();
      add('http.conditional', conditional.status === 304 ? 'pass' : 'warn', `If-None-Match answered ${conditional.status}${conditional.status === 304 ? '' : '; expected 304'}`);
    } catch (error) {
      add('http.conditional', 'fail', `conditional GET failed: ${describeError(error)}`);
    }
  }

  try {
    const head = await fetch(url, { method: 'HEAD', headers: authorization });
    await head.body?.cancel();
    add('http.head', head.status === 200 ? 'pass' : 'warn', `HEAD answered ${head.status}`);
  } catch (error) {
    add('http.head', 'warn', `HEAD failed: ${describeError(error)}`);
  }
  await checkCompression(input);
}

/** A gzip answer must say it varies on Accept-Encoding, on its 200 and its 304, and carry its own ETag. */
async function checkCompression({ url, fetch, add, authorization, manifest }: ManifestResponseInput): Promise<void> {
  try {
    const identity = await fetch(url, { headers: { 'accept-encoding': 'identity', ...authorization } });
    await identity.body?.cancel();
    checkEtagIsDigest(identity.headers.get('etag'), manifest, add);
    const coded = await fetch(url, { headers: { 'accept-encoding': 'gzip', ...authorization } });
    await coded.body?.cancel();
    const coding = coded.headers.get('content-encoding');
    if (!coding || coding === 'identity') {
      add('http.compression_vary', 'skip', 'not compressed for Accept-Encoding: gzip, so the Vary rule does not apply');
      return;
    }
    const problems: string[] = [];
    if (!varies(coded.headers.get('vary'))) problems.push(`the ${coding} answer lacks Vary: Accept-Encoding`);
    const codedTag = coded.headers.get('etag');
    if (codedTag !== null && codedTag === identity.headers.get('etag')) problems.push(`the ${coding} answer reuses the identity form's ETag ${codedTag}`);
    if (codedTag !== null) {
      const revalidated = await fetch(url, { headers: { 'accept-encoding': 'gzip', 'if-none-match': codedTag, ...authorization } });
      await revalidated.body?.cancel();
      if (revalidated.status === 304 && !varies(revalidated.headers.get('vary'))) problems.push('its 304 lacks Vary: Accept-Encoding');
    }
    add(
      'http.compression_vary',
      problems.length === 0 ? 'pass' : 'fail',
      problems.length === 0 ? `${coding} answer with Vary: Accept-Encoding and an ETag of its own` : `${problems.join('; ')}: shared caches would hand the wrong coding to other clients`,
    );
  } catch (error) {
    add('http.compression_vary', 'fail', `GET with Accept-Encoding failed: ${describeError(error)}`);
  }
}

/**
 * A browser agent's conditional GET (`If-None-Match`) is preflighted: the route answers the `OPTIONS`
 * with a 2xx and `Access-Control-Allow-Origin`, or the agent cannot revalidate (section 3; the kit's
 * `producer.manifest.cors_preflight`).
 */
async function checkPreflight({ url, fetch, add }: ManifestResponseInput): Promise<void> {
  try {
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: 'https://aicap-check.invalid', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' },
    });
    await preflight.body?.cancel();
    const allowOrigin = preflight.headers.get('access-control-allow-origin');
    const answered = preflight.status === 200 || preflight.status === 204;
    if (answered && allowOrigin !== null) add('http.cors_preflight', 'pass', `OPTIONS answered ${preflight.status} with Access-Control-Allow-Origin: ${allowOrigin}`);
    else
      add(
        'http.cors_preflight',
        'warn',
        `the OPTIONS preflight answered ${preflight.status}${allowOrigin === null ? ' without Access-Control-Allow-Origin' : ''}: browser-based agents cannot revalidate the manifest`,
      );
  } catch (error) {
    add('http.cors_preflight', 'warn', `the OPTIONS preflight failed: ${describeError(error)}`);
  }
}

/** The identity form's ETag is the quoted canonical digest (section 5), so a client can compare it with a pinned digest without downloading the manifest. */
function checkEtagIsDigest(etag: string | null, manifest: Manifest | undefined, add: AddCheck): void {
  if (manifest === undefined || etag === null) return;
  const digest = `"${digestManifest(manifest)}"`;
  if (etag === digest) add('http.etag_is_digest', 'pass', `the identity form's ETag is the canonical digest ${digest}`);
  else add('http.etag_is_digest', 'warn', `the identity form's ETag ${etag} is not the quoted canonical digest ${digest}`);
}

function varies(vary: string | null): boolean {
  return (vary ?? '').split(',').some((token) => ['accept-encoding', '*'].includes(token.trim().toLowerCase()));
}
