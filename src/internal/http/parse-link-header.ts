/** One link of an RFC 8288 `Link` header. */
export interface LinkValue {
  /** The target, as written (resolve it against the response URL). */
  target: string;
  /** Lower-cased relation types of the `rel` parameter. */
  relations: string[];
  /** Other parameters, names lower-cased. */
  parameters: Record<string, string>;
}

/**
 * Parses an RFC 8288 `Link` header value: `<url>; rel="a b"; type="…", <url2>; rel=next`. Quoted
 * strings may contain commas and semicolons. Malformed links are skipped, never thrown on.
 * @internal
 */
export function parseLinkHeader(header: string): LinkValue[] {
  const links: LinkValue[] = [];
  // Bounded input: a header is at most a few KiB by the time it reaches us (undici caps headers).
  const pattern = /<([^>]*)>((?:\s*;\s*[^\s;,=]+(?:\s*=\s*(?:"(?:[^"\\]|\\.)*"|[^\s;,]*))?)*)/g;
  for (const match of header.matchAll(pattern)) {
    const target = match[1] ?? '';
    const parameters: Record<string, string> = {};
    for (const parameter of (match[2] ?? '').matchAll(/;\s*([^\s;,=]+)(?:\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s;,]*)))?/g)) {
      const name = (parameter[1] ?? '').toLowerCase();
      // RFC 8288 §3: only the first occurrence of a parameter counts.
      if (Object.hasOwn(parameters, name)) continue;
      parameters[name] = parameter[2] !== undefined ? parameter[2].replace(/\\(.)/g, '$1') : (parameter[3] ?? '');
    }
    const relations = (parameters['rel'] ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    links.push({ target, relations, parameters });
  }
  return links;
}
