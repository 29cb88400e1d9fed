/**
 * `aicap/hono`: Hono 4 middleware over `aicap/server`. Hono speaks `Request`/`Response` already, so
 * this only wires handlers to its context. Type-only imports of `hono`, an optional peer dependency.
 *
 * This file is the complete public surface of the entry. Every export is chosen by hand.
 * @module
 */

import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { responseFromDecision } from '../server/http-answer.js';
import { toManifestRequestWith } from '../server/to-node-listener.js';
import { createManifestHandler, type CreateManifestHandlerOptions, type ManifestHandler } from '../server/create-manifest-handler.js';
import type { JobRunner, JobStreams } from '../server/create-job-streams.js';

/** A middleware that knows which requests it answers; others go to `next()`. */
export type HonoManifestMiddleware = MiddlewareHandler & {
  /** The manifest handler behind it, e.g. to await `ready`. */
  readonly manifestHandler: ManifestHandler;
};

/**
 * Serves the manifest at its path (default `/.well-known/ai-capabilities`) with everything
 * `createManifestHandler` does; other paths go to `next()`.
 * @example
 * ```ts
 * app.use(aiCapabilities({ manifest }));
 * ```
 */
export function aiCapabilities(options: CreateManifestHandlerOptions): HonoManifestMiddleware {
  const handler = createManifestHandler(options);
  // Not `async`: Hono sends a `Response` that a handler returns synchronously without awaiting it, and
  // on Node that is the difference between the manifest route and a static route costing the same.
  // Hono's dispatcher and `compose` accept a plain `Response` where the type says promise.
  const middleware = ((context, next) => {
    if (context.req.path !== handler.path) return next();
    const raw = context.req.raw;
    const incoming = untouchedIncomingOf(context);
    if (incoming === undefined) return handler.respond(raw);
    return responseFromDecision(handler.decide(toManifestRequestWith(incoming, raw, handler.path)));
  }) as MiddlewareHandler;
  return Object.assign(middleware, { manifestHandler: handler });
}

/** The symbol-keyed fields of `@hono/node-server`'s lightweight request: its incoming message, and its Headers once built. */
interface LightweightRequestKeys {
  readonly incoming: symbol;
  readonly headers: symbol;
}
let lightweightKeys: LightweightRequestKeys | undefined;

/**
 * On Node, `@hono/node-server` hands the app a lightweight `Request` over the incoming message (as
 * `env.incoming`) and builds its `Headers` only when something reads them: the route then reads its two
 * headers from the message itself, which saves building a `Headers` object per request. That is safe
 * only while the request is that very message's and its headers were never built (a middleware could
 * have changed them; the native `Request` is built from them too). Both are checked through the
 * lightweight request's symbol-keyed fields, found by name once (on the first request, which builds
 * its Headers to reveal the key and so takes the Web path); anything unexpected (another runtime,
 * another adapter version, a rebuilt request) takes the Web path.
 */
function untouchedIncomingOf(context: Context): IncomingMessage | undefined {
  const incoming = (context.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming === undefined || typeof incoming.headers !== 'object') return undefined;
  const raw = context.req.raw as unknown as Record<symbol, unknown>;
  const keys = lightweightKeys ?? findLightweightKeys(raw);
  if (keys === undefined || raw[keys.incoming] !== incoming || raw[keys.headers] !== undefined) return undefined;
  return incoming;
}

function findLightweightKeys(raw: Record<symbol, unknown>): LightweightRequestKeys | undefined {
  const named = (name: string): symbol | undefined => Object.getOwnPropertySymbols(raw).find((key) => key.description === name);
  const incoming = named('incomingKey');
  if (incoming === undefined) return undefined;
  void (raw as unknown as Request).headers;
  const headers = named('headersKey');
  if (headers === undefined) return undefined;
  lightweightKeys = { incoming, headers };
  return lightweightKeys;
}

/** Serves the job endpoints of `createJobStreams`; other paths go to `next()`. */
export function jobStreamsMiddleware(jobs: JobStreams): MiddlewareHandler {
  return async (context, next) => (await jobs.handle(context.req.raw)) ?? next();
}

/** Starts a job from a Hono route: 202 with `Location` as `JobStreams.start` does. */
export function startJob(jobs: JobStreams, context: Context, run: JobRunner): Promise<Response> {
  return jobs.start(context.req.raw, run);
}
