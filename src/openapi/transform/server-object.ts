import { isLoopbackHostname } from '../../internal/is-loopback-hostname.js';
import { isRecord, nonEmptyString, type TransformContext } from './transform-context.js';

/** Used when no absolute https server URL can be found, so the manifest stays valid; a warning says to set it. */
export const PLACEHOLDER_BASE_URL = 'https://api.example.invalid';

/**
 * Maps `servers[0]` to `service.base_url`: server variables are replaced by their defaults, a
 * relative URL is resolved against the description's own URL, a trailing slash is dropped, and
 * `http:` (allowed only on loopback by the spec) is upgraded to `https:` with a warning.
 */
export function transformServerObject(servers: unknown, documentUrl: string, context: TransformContext): string {
  const server = Array.isArray(servers) ? servers[0] : undefined;
  const template = isRecord(server) ? nonEmptyString(server['url']) : undefined;
  if (template === undefined) {
    context.warn({
      code: 'service.base_url',
      where: 'servers',
      message: `no server URL is declared; base_url is the placeholder ${PLACEHOLDER_BASE_URL}: pass \`serverUrl\` (CLI --server-url) or add servers[0]`,
    });
    return PLACEHOLDER_BASE_URL;
  }
  const variables = isRecord(server) && isRecord(server['variables']) ? server['variables'] : {};
  const expanded = template.replace(/\{([^{}]+)\}/g, (whole, name: string) => {
    const variable = variables[name];
    return isRecord(variable) && variable['default'] !== undefined ? String(variable['default']) : whole;
  });
  let url: URL;
  try {
    url = new URL(expanded, documentUrl.startsWith('http') ? documentUrl : undefined);
  } catch {
    context.warn({
      code: 'service.base_url',
      where: 'servers/0',
      message: `server URL "${expanded}" is relative or invalid and the description has no http(s) location to resolve it against; base_url is the placeholder ${PLACEHOLDER_BASE_URL}: pass \`serverUrl\``,
    });
    return PLACEHOLDER_BASE_URL;
  }
  if (/\{[^{}]+\}/.test(decodeURI(url.href))) {
    context.warn({
      code: 'service.base_url',
      where: 'servers/0',
      message: `server URL "${template}" has a variable without a default; base_url is the placeholder ${PLACEHOLDER_BASE_URL}: pass \`serverUrl\``,
    });
    return PLACEHOLDER_BASE_URL;
  }
  if (url.protocol === 'http:' && !isLoopbackHostname(url.hostname)) {
    context.warn({ code: 'service.base_url_upgraded', where: 'servers/0', message: `server URL ${url.origin} uses http; base_url must use https, so it was changed to https` });
    url.protocol = 'https:';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    context.warn({ code: 'service.base_url', where: 'servers/0', message: `server URL scheme "${url.protocol}" is not http(s); base_url is the placeholder ${PLACEHOLDER_BASE_URL}` });
    return PLACEHOLDER_BASE_URL;
  }
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/+$/, '');
}
