import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { mediaTypeOf } from '../internal/parse-media-type.js';

/** The cookie that carries the per-run token after the first page load. */
export const INSPECTOR_COOKIE = 'aicap_inspector';

/** Why a request is refused, or undefined when it may go on. */
export interface GuardRefusal {
  status: 400 | 403 | 405 | 415;
  message: string;
}

/**
 * Decides whether a request reaches the inspector. The inspector binds 127.0.0.1 only, but a web
 * page the person has open could still send requests to it (cross-site requests, DNS rebinding), so:
 * the `Host` must be this server's own loopback name (a rebinding page sends its own host name);
 * every request carries the per-run token, in the `token` query parameter of the first page load or
 * afterwards in a `SameSite=Strict` cookie (never sent by another site's page); state changes are
 * POSTs with `Content-Type: application/json` (which a cross-site form cannot send without a
 * preflight this server never grants). GET never changes state.
 */
export function guardInspectorRequest(request: IncomingMessage, url: URL, expected: { token: string; port: number }): GuardRefusal | undefined {
  const host = request.headers.host ?? '';
  if (host !== `127.0.0.1:${expected.port}` && host !== `localhost:${expected.port}`) {
    return { status: 403, message: `Refused: the inspector answers only to http://127.0.0.1:${expected.port} (Host was ${JSON.stringify(host.slice(0, 100))}).` };
  }
  const presented = url.searchParams.get('token') ?? cookieValue(request.headers.cookie, INSPECTOR_COOKIE);
  if (presented === undefined || !sameToken(presented, expected.token)) {
    return { status: 403, message: "Refused: this request does not carry the inspector's token. Open the URL `aicap inspect` printed (it contains the token)." };
  }
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  if (request.method !== 'POST') return { status: 405, message: `Refused: ${request.method ?? '?'} is not used by the inspector (GET reads, POST acts).` };
  if (mediaTypeOf(request.headers['content-type']) !== 'application/json') return { status: 415, message: 'Refused: actions take a JSON body (Content-Type: application/json).' };
  return undefined;
}

/** One cookie's value from a `Cookie` header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

function sameToken(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
