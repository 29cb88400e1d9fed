// Headers that frame or route the message (RFC 9110 §7.6.1, RFC 9112) or that the client owns: a
// value chosen by a model could redirect the request to another virtual host, smuggle a second
// request or replace the caller's credentials and cookies.
const FORBIDDEN_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'keep-alive', 'expect', 'cookie', 'authorization']);

/**
 * Why a header of this name cannot be a manifest parameter (`in: "header"`), or undefined when it
 * can: `Host`, the framing and hop-by-hop headers, `Expect`, every `Proxy-*` header, `Cookie` (use
 * `in: "cookie"`) and `Authorization` (credentials come from `auth`). Case-insensitive.
 */
export function forbiddenHeaderReason(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (lower === 'cookie') return 'declare each cookie with "in": "cookie"';
  if (lower === 'authorization') return 'credentials are described under "auth" and sent by the client';
  if (FORBIDDEN_HEADERS.has(lower) || lower.startsWith('proxy-')) return 'the HTTP client sets it';
  return undefined;
}
