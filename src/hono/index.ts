/**
 * `aicap/hono`: Hono 4 middleware over `aicap/server`. Hono speaks `Request`/`Response` already, so
 * this only wires handlers to its context. Type-only imports of `hono`, an optional peer dependency.
 *
 * This file is the complete public surface of the entry. Every export is chosen by hand.
 * @module
 */

import type { Context, MiddlewareHandler } from 'hono';
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
    return handler.respond(context.req.raw);
  }) as MiddlewareHandler;
  return Object.assign(middleware, { manifestHandler: handler });
}

/** Serves the job endpoints of `createJobStreams`; other paths go to `next()`. */
export function jobStreamsMiddleware(jobs: JobStreams): MiddlewareHandler {
  return async (context, next) => (await jobs.handle(context.req.raw)) ?? next();
}

/** Starts a job from a Hono route: 202 with `Location` as `JobStreams.start` does. */
export function startJob(jobs: JobStreams, context: Context, run: JobRunner): Promise<Response> {
  return jobs.start(context.req.raw, run);
}
