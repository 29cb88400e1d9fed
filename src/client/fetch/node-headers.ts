import type { IncomingHttpHeaders } from 'node:http';
import { isLoopbackHostname } from '../../internal/is-loopback-hostname.js';

/**
 * Request headers for undici's `request`, with the defaults `fetch` adds (the ones calls sent before
 * they moved off `fetch`): some APIs refuse a request without a `User-Agent`, and `Accept-Encoding`
 * keeps large bodies compressed on the wire (decoded and counted by `readNodeBody`). A loopback
 * origin is asked for `identity`: with no network between the two processes, compressing and
 * decoding only cost CPU on both sides (gzip and back took 0.1 ms of a 2.6 KB manifest's discovery).
 * @internal
 */
export function requestHeaders(headers: Headers, url: URL): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [name, value] of headers) record[name] = value;
  record['accept'] ??= '*/*';
  record['accept-language'] ??= '*';
  record['sec-fetch-mode'] ??= 'cors';
  record['user-agent'] ??= 'undici';
  record['accept-encoding'] ??= isLoopbackHostname(url.hostname) ? 'identity' : url.protocol === 'https:' ? 'br, gzip, deflate' : 'gzip, deflate';
  return record;
}

/** The first value of a Node header. @internal */
export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Node's header record as Web `Headers`. @internal */
export function toHeaders(raw: IncomingHttpHeaders): Headers {
  return new NodeResponseHeaders(raw);
}

/**
 * The headers as a record of lower-case names, as `Object.fromEntries(headers)` gives it (values of a
 * repeated header joined, a repeated `Set-Cookie`: the last one), without filling a response's
 * `Headers` from undici's record first (what a revalidation hands to the cache policy).
 * @internal
 */
export function headerRecord(headers: Headers): Record<string, string> {
  return headers instanceof NodeResponseHeaders ? headers.record() : Object.fromEntries(headers);
}

// HTTP whitespace, which `Headers` strips from both ends of a value.
const HTTP_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/**
 * Web `Headers` over undici's header record, filled on first need. Appending every header of a
 * response to a `Headers` costs more than the rest of a call's bookkeeping, and most responses are
 * only asked for two or three: `get` and `has` read the record (with the same answers a filled
 * `Headers` gives), everything else fills it first and is then plain `Headers`.
 */
class NodeResponseHeaders extends Headers {
  #raw: IncomingHttpHeaders | undefined;

  constructor(raw: IncomingHttpHeaders) {
    super();
    this.#raw = raw;
  }

  #filled(): this {
    const raw = this.#raw;
    if (raw !== undefined) {
      this.#raw = undefined;
      for (const [name, value] of Object.entries(raw)) {
        if (Array.isArray(value)) for (const item of value) super.append(name, item);
        else if (value !== undefined) super.append(name, value);
      }
    }
    return this;
  }

  /** See {@link headerRecord}. */
  record(): Record<string, string> {
    const raw = this.#raw;
    if (raw === undefined) return Object.fromEntries(this);
    const record: Record<string, string> = {};
    for (const [name, value] of Object.entries(raw)) {
      if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
      if (!Array.isArray(value)) record[name] = normaliseValue(value);
      else record[name] = name === 'set-cookie' ? normaliseValue(value[value.length - 1]!) : value.map(normaliseValue).join(', ');
    }
    return record;
  }

  override get(name: string): string | null {
    const raw = this.#raw;
    if (raw === undefined) return super.get(name);
    const key = name.toLowerCase();
    const value = Object.hasOwn(raw, key) ? raw[key] : undefined;
    if (value === undefined) return null;
    return Array.isArray(value) ? (value.length === 0 ? null : value.map(normaliseValue).join(', ')) : normaliseValue(value);
  }

  override has(name: string): boolean {
    const raw = this.#raw;
    if (raw === undefined) return super.has(name);
    const key = name.toLowerCase();
    const value = Object.hasOwn(raw, key) ? raw[key] : undefined;
    return value !== undefined && !(Array.isArray(value) && value.length === 0);
  }

  override append(name: string, value: string): void {
    this.#filled();
    super.append(name, value);
  }

  override set(name: string, value: string): void {
    this.#filled();
    super.set(name, value);
  }

  override delete(name: string): void {
    this.#filled();
    super.delete(name);
  }

  override getSetCookie(): string[] {
    return this.#filled() && super.getSetCookie();
  }

  override forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    this.#filled();
    super.forEach(callback, thisArg);
  }

  override entries(): ReturnType<Headers['entries']> {
    return this.#filled() && super.entries();
  }

  override keys(): ReturnType<Headers['keys']> {
    return this.#filled() && super.keys();
  }

  override values(): ReturnType<Headers['values']> {
    return this.#filled() && super.values();
  }

  override [Symbol.iterator](): ReturnType<Headers['entries']> {
    return this.#filled() && super[Symbol.iterator]();
  }
}

function normaliseValue(value: string): string {
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  const isWhitespace = (code: number): boolean => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
  return value.length > 0 && (isWhitespace(first) || isWhitespace(last)) ? value.replace(HTTP_WHITESPACE, '') : value;
}
