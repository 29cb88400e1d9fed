import type { IncomingHttpHeaders } from 'node:http';

/**
 * Request headers for undici's `request`, with the defaults `fetch` adds (the ones calls sent before
 * they moved off `fetch`): some APIs refuse a request without a `User-Agent`, and `Accept-Encoding`
 * keeps large bodies compressed on the wire (decoded and counted by `readNodeBody`).
 * @internal
 */
export function requestHeaders(headers: Headers, url: URL): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [name, value] of headers) record[name] = value;
  record['accept'] ??= '*/*';
  record['accept-language'] ??= '*';
  record['sec-fetch-mode'] ??= 'cors';
  record['user-agent'] ??= 'undici';
  record['accept-encoding'] ??= url.protocol === 'https:' ? 'br, gzip, deflate' : 'gzip, deflate';
  return record;
}

/** The first value of a Node header. @internal */
export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Node's header record as Web `Headers`. @internal */
export function toHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.append(name, value);
  }
  return headers;
}
