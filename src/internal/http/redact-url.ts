// Query parameter names whose values are credentials often enough that they never appear in
// messages or audit events (the mcp-scan redaction case list: keys kept, values replaced).
const SECRET_PARAMETER = /(^|[_-])(token|key|secret|password|passwd|pwd|auth|authorization|signature|sig|session|credential|code)s?($|[_-])|apikey|access_?token/i;

/**
 * The URL as text with userinfo removed and the values of credential-looking query parameters
 * replaced by `[REDACTED]`, safe for error messages and logs.
 * @internal
 */
export function redactUrl(input: string | URL): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return '[invalid URL]';
  }
  // Each setter serialises the URL again, and `searchParams` builds a list: only what is there is removed.
  if (url.username !== '' || url.password !== '') {
    url.username = '';
    url.password = '';
  }
  if (url.hash !== '') url.hash = '';
  if (url.search === '') return url.href;
  let changed = false;
  for (const name of new Set(url.searchParams.keys())) {
    if (SECRET_PARAMETER.test(name)) {
      url.searchParams.set(name, '[REDACTED]');
      changed = true;
    }
  }
  // URLSearchParams re-encodes the brackets; keep the marker readable.
  return changed ? url.href.replaceAll('%5BREDACTED%5D', '[REDACTED]') : url.href;
}
