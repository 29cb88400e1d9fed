/**
 * The path of a request, as `new URL(…).pathname` gives it, without running the URL parser when the
 * path is `expected`: nearly every request to a route asks for exactly its path, and parsing a URL is
 * a measurable part of serving a prepared answer.
 */

/**
 * The path of a serialized absolute URL, such as `Request.url`. In a serialized URL the authority
 * holds no `/`, `\`, `?` or `#`, so the path starts at the first `/` after `://`.
 * @internal
 */
export function pathOfUrl(url: string, expected: string): string {
  const schemeEnd = url.indexOf('://');
  const start = schemeEnd === -1 ? -1 : url.indexOf('/', schemeEnd + 3);
  if (start !== -1 && isPathAt(url, start, expected)) return expected;
  return new URL(url).pathname;
}

/**
 * The path of an HTTP request target as a Node request carries it (origin form `/path?query`, or
 * anything else a client sent). Dot segments, percent-encoding and absolute-form targets are
 * normalized as the fetch path does; a target the URL parser refuses is returned up to its query.
 * @internal
 */
export function pathOfTarget(target: string, expected: string): string {
  if (isPathAt(target, 0, expected)) return expected;
  try {
    return new URL(target, 'http://localhost').pathname;
  } catch {
    const queryAt = target.indexOf('?');
    return queryAt === -1 ? target : target.slice(0, queryAt);
  }
}

// `expected` starts at `start` and is followed by the end, a query or a fragment.
function isPathAt(text: string, start: number, expected: string): boolean {
  if (!text.startsWith(expected, start)) return false;
  const end = start + expected.length;
  if (end === text.length) return true;
  const next = text.charCodeAt(end);
  return next === 0x3f /* ? */ || next === 0x23; /* # */
}
