/** A `Content-Type` value taken apart (RFC 9110 §8.3.1). */
export interface MediaType {
  /** `type/subtype`, trimmed and lower case, without parameters; `''` when the header is absent. */
  essence: string;
  /** Parameters by lower-cased name (`charset`, `boundary`…), values unquoted; the first of a repeated name wins. */
  parameters: Record<string, string>;
}

// `; name=value`, the value a token or a quoted string.
const PARAMETER = /;\s*([^\s;=]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;

/**
 * Takes a `Content-Type` (or one media range) apart: the essence and its parameters. Matching the raw
 * header with `startsWith` or `includes` misreads `Application/JSON`, `text/event-stream-x` and
 * parameters, so every reader of a media type goes through here.
 */
export function parseMediaType(contentType: string | null | undefined): MediaType {
  const text = contentType ?? '';
  const end = text.indexOf(';');
  const parameters: Record<string, string> = {};
  // A quoted value may hold `;` (RFC 9110 §5.6.4), so parameters are matched, not split.
  for (const match of (end === -1 ? '' : text.slice(end)).matchAll(PARAMETER)) {
    const name = match[1]!.toLowerCase();
    const raw = match[2]!.trim();
    const value = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    if (!Object.hasOwn(parameters, name)) parameters[name] = value;
  }
  return { essence: (end === -1 ? text : text.slice(0, end)).trim().toLowerCase(), parameters };
}

/** The essence of a `Content-Type` value (`type/subtype`, lower case, no parameters; `''` when absent). */
export function mediaTypeOf(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** True for `application/json` and every `+json` structured-syntax type (RFC 6839 §3.1), given an essence. */
export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

const EVENT_STREAM_MEDIA_TYPE = 'text/event-stream';

/** True when a `Content-Type` value is `text/event-stream`, whatever its case and parameters. */
export function isEventStream(contentType: string | null | undefined): boolean {
  return mediaTypeOf(contentType) === EVENT_STREAM_MEDIA_TYPE;
}
