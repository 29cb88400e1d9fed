/**
 * Who may call the Payments API: a bearer token (RFC 6750) resolved to a principal and scopes, an
 * `X-Agent-ID`, and a per-agent fixed-window rate limit. Failures answer as the manifest declares:
 * 401 with a `WWW-Authenticate` challenge naming the RFC 9728 metadata, 400 without an agent id, 429
 * with `Retry-After`, and 403 `insufficient_scope` naming the scope needed.
 * @module
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendProblem } from './send-problem.js';

/** What a bearer token stands for. */
export interface TokenGrant {
  /** Who acts: the token's name for fixed tokens, `user:<id>` for a user's token. */
  principal: string;
  /** Scopes the token carries. */
  scopes: readonly string[];
}

/** An authenticated caller of the API. */
export interface Caller extends TokenGrant {
  /** `X-Agent-ID` of the calling agent. */
  agentId: string;
}

/** Options of {@link createApiAuth}. */
export interface CreateApiAuthOptions {
  /** Per-agent fixed window: at most `requests` in `windowInMs`. */
  rateLimit: { requests: number; windowInMs: number };
  /** Resolves a bearer token; `undefined` for an unknown, expired or revoked one. */
  resolveToken(token: string): Promise<TokenGrant | undefined>;
  /** URL of the RFC 9728 protected-resource metadata, for the 401 challenge. */
  resourceMetadataUrl(): string;
}

/** The API's gate, from {@link createApiAuth}. */
export interface ApiAuth {
  /** The token's grant, or `undefined` (no token, unknown token). */
  grantOf(authorization: string | undefined): Promise<TokenGrant | undefined>;
  /** The caller, or `undefined` after answering 401, 400 or 429 itself. */
  authenticate(incoming: IncomingMessage, outgoing: ServerResponse): Promise<Caller | undefined>;
  /** Whether the caller has `scope`; answers 403 `insufficient_scope` itself when not. */
  requireScope(caller: Caller, scope: string, outgoing: ServerResponse): boolean;
}

/** The bearer token of an `Authorization` header, if it has one. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? '');
  return match?.[1];
}

/** Creates the API's {@link ApiAuth}. */
export function createApiAuth(options: CreateApiAuthOptions): ApiAuth {
  const { rateLimit } = options;
  const windows = new Map<string, { startedAt: number; count: number }>();
  const grantOf = async (authorization: string | undefined): Promise<TokenGrant | undefined> => {
    const token = bearerToken(authorization);
    return token === undefined ? undefined : options.resolveToken(token);
  };
  // True when the agent is past its window's budget; the answer is then already sent.
  const limited = (agentId: string, outgoing: ServerResponse): boolean => {
    const now = Date.now();
    let window = windows.get(agentId);
    if (!window || now - window.startedAt >= rateLimit.windowInMs) {
      if (windows.size > 10_000) windows.clear();
      window = { startedAt: now, count: 0 };
      windows.set(agentId, window);
    }
    if (++window.count <= rateLimit.requests) return false;
    const retryAfter = Math.max(1, Math.ceil((window.startedAt + rateLimit.windowInMs - now) / 1000));
    sendProblem(outgoing, 429, 'rate-limited', 'Too Many Requests', `Agent ${agentId} made more than ${rateLimit.requests} requests in ${rateLimit.windowInMs} ms; retry after ${retryAfter} s.`, {
      'Retry-After': String(retryAfter),
    });
    return true;
  };

  return {
    grantOf,
    async authenticate(incoming, outgoing) {
      const authorization = incoming.headers.authorization;
      const grant = await grantOf(authorization);
      if (!grant) {
        const metadata = `resource_metadata="${options.resourceMetadataUrl()}"`;
        const challenge = bearerToken(authorization) === undefined ? `Bearer realm="payments", ${metadata}` : `Bearer realm="payments", error="invalid_token", ${metadata}`;
        sendProblem(outgoing, 401, 'unauthorized', 'Unauthorized', 'Send `Authorization: Bearer demo-read` (or `demo-admin`).', { 'WWW-Authenticate': challenge });
        return undefined;
      }
      const agentId = headerValue(incoming, 'x-agent-id');
      if (agentId === undefined || !/^[\x21-\x7e]{1,128}$/.test(agentId)) {
        sendProblem(outgoing, 400, 'agent-id-required', 'Agent Id Required', 'Every call must carry an `X-Agent-ID` header (1-128 visible ASCII characters) identifying the calling agent.');
        return undefined;
      }
      if (limited(agentId, outgoing)) return undefined;
      return { ...grant, agentId };
    },
    requireScope(caller, scope, outgoing) {
      if (caller.scopes.includes(scope)) return true;
      const detail = `This operation needs the \`${scope}\` scope; the token has ${JSON.stringify(caller.scopes)}.`;
      sendProblem(outgoing, 403, 'insufficient-scope', 'Insufficient Scope', detail, { 'WWW-Authenticate': `Bearer realm="payments", error="insufficient_scope", scope="${scope}"` });
      return false;
    },
  };
}

/** One request header as a string (repeated headers joined as Node joins them). */
export function headerValue(incoming: IncomingMessage, name: string): string | undefined {
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
