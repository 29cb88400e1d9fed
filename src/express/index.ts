/**
 * `aicap/express`: Express 4/5 adapters over `aicap/server`. Type-only imports of `express`, which is
 * an optional peer dependency; no logic beyond converting requests and responses.
 *
 * This file is the complete public surface of the entry. Every export is chosen by hand.
 * @module
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express';
import { AicapError } from '../errors/aicap-error.js';
import type { Manifest, Tool } from '../manifest/manifest-v0.js';
import { createManifestHandler, type CreateManifestHandlerOptions, type ManifestHandler } from '../server/create-manifest-handler.js';
import type { JobStreams } from '../server/create-job-streams.js';
import { deriveTool, withDerivedTools, type DerivedTool, type RouteAiConfig, type RouteDescription } from '../server/derive-tool.js';
import { serveManifestOnNode, toWebRequest, withManifestRoute, writeNodeResponse, type FetchHandler } from '../server/to-node-listener.js';
import { validateRequest } from './validate-request.js';

/** A middleware that knows which requests it answers; others go to `next()`. */
export type ExpressMiddleware = RequestHandler & {
  /** The manifest handler behind it, e.g. to await `ready`. */
  readonly manifestHandler: ManifestHandler;
};

/**
 * Serves the manifest at its path (default `/.well-known/ai-capabilities`) with everything
 * `createManifestHandler` does; other paths go to `next()`. Mount it with `app.use(…)` before routes.
 * @example
 * ```ts
 * app.use(aiCapabilities({ manifest }));
 * ```
 */
export function aiCapabilities(options: CreateManifestHandlerOptions): ExpressMiddleware {
  const handler = createManifestHandler(options);
  const middleware: RequestHandler = (request, response, next) => {
    const path = request.baseUrl + request.path;
    if (path !== handler.path) return next();
    serveManifestOnNode(handler, request, response, next, path);
  };
  return Object.assign(middleware, { manifestHandler: handler });
}

/** A `node:http` request listener that serves the manifest route and hands everything else to the app. */
export type ManifestRouteListener = ((request: IncomingMessage, response: ServerResponse) => void) & {
  /** The manifest handler behind it, e.g. to await `ready`. */
  readonly manifestHandler: ManifestHandler;
};

/**
 * Serves the manifest in front of an Express app rather than inside it: a request listener that
 * answers the manifest path itself (the same answers as {@link aiCapabilities}: 200, HEAD, 304,
 * br/gzip/identity, 405 and 406 problem answers, CORS preflight, per-credential variants) and hands
 * every other request to `app` untouched. Pass it to `createServer` instead of the app.
 *
 * Why: Express does per-request work before any middleware runs (its router, and re-prototyping the
 * request and response, which also makes Node's own header and body writes on them slower), and on a
 * 10 KB answer that is most of the cost of the request. Answered in front, the manifest route costs
 * what a bare `node:http` answer costs. The price: the app's middleware (logging, rate limits, helmet)
 * does not see these requests, and `app.listen()` would bypass the listener. Use the middleware when
 * they must.
 * @example
 * ```ts
 * createServer(withAiCapabilities(app, { manifest })).listen(3000);
 * ```
 */
export function withAiCapabilities(app: (request: IncomingMessage, response: ServerResponse) => void, options: CreateManifestHandlerOptions): ManifestRouteListener {
  // Checked now: a wrong `app` would otherwise throw inside the server on the first other request.
  if (typeof app !== 'function') {
    throw new AicapError(
      'INVALID_ARGUMENT',
      `\`withAiCapabilities\` needs the Express app (or any request listener) as its first argument, got ${app === null ? 'null' : typeof app}. Call it as withAiCapabilities(app, { manifest }).`,
    );
  }
  const handler = createManifestHandler(options);
  return Object.assign(withManifestRoute(handler, app), { manifestHandler: handler });
}

/** Runs any fetch-style handler (the AI Catalog handler, your own) as an Express handler. */
export function toExpressHandler(handler: FetchHandler): RequestHandler {
  return (request, response, next) => void send(handler, request, response, next);
}

/** Serves the job endpoints of `createJobStreams` (status JSON/SSE, result, cancel, respond); other paths go to `next()`. */
export function jobStreamsMiddleware(jobs: JobStreams): RequestHandler {
  return (request, response, next) => {
    // Only job paths are converted: every other request goes on untouched, its body unread.
    if (!jobs.matches(request.baseUrl + request.path)) return next();
    void (async () => {
      const answer = await jobs.handle(toWebRequest(request, response, request.body));
      if (answer) await writeNodeResponse(answer, response);
      else next();
    })().catch(next);
  };
}

/** Starts a job from an Express route: answers 202 with `Location` as `JobStreams.start` does. */
export function startJob(jobs: JobStreams, request: ExpressRequest, response: ExpressResponse, run: Parameters<JobStreams['start']>[1]): Promise<void> {
  return jobs.start(toWebRequest(request, response, request.body), run).then((answer) => writeNodeResponse(answer, response));
}

/** The methods an Express router has for registering routes. */
export interface ToolRouter {
  get(path: string, ...handlers: RequestHandler[]): unknown;
  post(path: string, ...handlers: RequestHandler[]): unknown;
  put(path: string, ...handlers: RequestHandler[]): unknown;
  patch(path: string, ...handlers: RequestHandler[]): unknown;
  delete(path: string, ...handlers: RequestHandler[]): unknown;
  head(path: string, ...handlers: RequestHandler[]): unknown;
}

/** The route and its AI description, for {@link defineTool}. */
export interface ToolDefinition extends RouteAiConfig {
  /** HTTP method. */
  method: Tool['method'];
  /** Path relative to `service.base_url` (the router's mount point), with `{name}` or `:name` placeholders. */
  path: string;
  /** JSON Schemas of the request and response, from which `parameters` and `returns` are derived. */
  schema?: RouteDescription['schema'];
}

const registries = new WeakMap<object, DerivedTool[]>();

/**
 * Registers an Express route and records it as a manifest tool, derived from its schemas and AI
 * fields (see `deriveTool`). Build the manifest with {@link manifestWithDefinedTools}. The declared
 * `params`, `querystring` and `body` schemas are enforced: a request that does not match gets `400`
 * problem+json listing each problem (part, JSON Pointer, message) and never reaches the handlers. A
 * JSON body is read if no body parser ran before (up to 1 MiB).
 * @example
 * ```ts
 * defineTool(router, { id: 'get_account', method: 'GET', path: '/accounts/{account_id}', description: 'Reads an account',
 *   schema: { params: { type: 'object', properties: { account_id: { type: 'string' } } } } }, (request, response) => { … });
 * ```
 */
export function defineTool(router: ToolRouter, definition: ToolDefinition, ...handlers: RequestHandler[]): DerivedTool {
  const { method, path, schema, ...ai } = definition;
  const derived = deriveTool({ method, path, ai, ...(schema === undefined ? {} : { schema }) });
  // The route keeps the path as written (an Express `*name` wildcard stays one), `{name}` made `:name`.
  const expressPath = path.replace(/\{([^{}]+)\}/g, ':$1');
  const validator = validateRequest(schema, `defineTool ${method} ${path}`);
  const register = router[method.toLowerCase() as Lowercase<Tool['method']>].bind(router);
  register(expressPath, ...(validator ? [validator] : []), ...handlers);
  const list = registries.get(router) ?? [];
  list.push(derived);
  registries.set(router, list);
  return derived;
}

/** The manifest `base` plus every tool registered on `router` through {@link defineTool}. */
export function manifestWithDefinedTools(base: Omit<Manifest, 'tools'> & { tools?: Tool[] }, router: ToolRouter): Manifest {
  return withDerivedTools(base, registries.get(router) ?? []);
}

async function send(handler: FetchHandler, request: ExpressRequest, response: ExpressResponse, next: NextFunction): Promise<void> {
  try {
    await writeNodeResponse(await handler(toWebRequest(request, response, request.body)), response);
  } catch (error) {
    next(error);
  }
}
