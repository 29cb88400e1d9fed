import { LINK_RELATION, WELL_KNOWN_PATH } from '../manifest/manifest-v0.js';

/**
 * The value of a `Link` header that points any API response at the manifest (RFC 8288), so an agent
 * that only knows one endpoint can discover the rest: `</.well-known/ai-capabilities>; rel="ai-capabilities"`.
 * @param target Manifest URL or path. @default '/.well-known/ai-capabilities'
 * @example
 * ```ts
 * response.headers.append('Link', capabilitiesLink());
 * ```
 */
export function capabilitiesLink(target: string = WELL_KNOWN_PATH): string {
  // A `>` or a control character would end the URI reference early and let a caller inject parameters.
  if (/[<>\s"]/.test(target)) throw new TypeError(`capabilitiesLink: the target ${JSON.stringify(target)} must not contain "<", ">", quotes or whitespace.`);
  return `<${target}>; rel="${LINK_RELATION}"`;
}
