/**
 * `aicap/fastify`: a Fastify 5 plugin over `aicap/server`. Type-only imports of `fastify`, which is an
 * optional peer dependency. The plugin sets the three `fastify-plugin` symbols itself (no runtime
 * dependency) so its routes and hooks are not encapsulated, and it can derive tools from the route
 * schemas of the application (`schema.body/querystring/params/response` + `config.ai`).
 *
 * This file is the complete public surface of the entry. Every export is chosen by hand.
 * @module
 */

import type { FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import type { Manifest, Tool } from '../manifest/manifest-v0.js';
import { createManifestHandler, type CreateManifestHandlerOptions, type ManifestHandler } from '../server/create-manifest-handler.js';
import type { JobRunner, JobStreams } from '../server/create-job-streams.js';
import { deriveTool, withDerivedTools, type DerivedTool, type RouteAiConfig } from '../server/derive-tool.js';
import type { HttpAnswer } from '../server/http-answer.js';
import { requestPath, toManifestRequest, toWebRequest, type FetchHandler } from '../server/to-node-listener.js';

/** Options of {@link aicapPlugin}: those of `createManifestHandler`, with the manifest possibly completed from routes. */
export interface AicapPluginOptions extends Omit<CreateManifestHandlerOptions, 'manifest' | 'load'> {
  /**
  The manifest, or its non-tool part when `deriveTools` is on. With `deriveTools`, every route
  registered after the plugin whose `config.ai` is set becomes a tool, and the manifest is validated
  when Fastify is ready (an invalid one makes `ready()`/`listen()` reject).
  */
  manifest: Manifest | (Omit<Manifest, 'tools'> & { tools?: Tool[] });
  /**
  Derive tools from routes with `config.ai` (see `deriveTool`). Only routes registered after the
  plugin are seen: `await app.register(aicapPlugin, …)` first. When routes exist already, a Node
  warning with code `AICAP_ROUTES_BEFORE_PLUGIN` says so.

  @default false
  */
  deriveTools?: boolean;
  /**
  Path prefix of the routes that `service.base_url` already contains (e.g. `/v2`), removed from derived tool paths.

  @default ''
  */
  basePath?: string;
  /** Job endpoints to serve (status JSON/SSE, result, cancel, respond). Their routes are registered for GET, HEAD and POST. */
  jobs?: JobStreams;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The tool this route becomes in the manifest, when `aicapPlugin` runs with `deriveTools`. */
    ai?: RouteAiConfig;
  }
}

const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

function plugin(fastify: FastifyInstance, options: AicapPluginOptions, done: (error?: Error) => void): void {
  const { manifest, deriveTools = false, basePath = '', jobs, ...handlerOptions } = options;
  let handler: ManifestHandler;
  try {
    if (deriveTools) {
      warnAboutEarlierRoutes(fastify);
      const derived: DerivedTool[] = [];
      let build: (value: Manifest) => void = () => undefined;
      const built = new Promise<Manifest>((resolve) => (build = resolve));
      fastify.addHook('onRoute', (route) => {
        const ai = route.config?.ai;
        if (!ai || route.method === 'HEAD') return;
        const path = route.url.startsWith(basePath) ? route.url.slice(basePath.length) || '/' : route.url;
        for (const method of [route.method].flat()) {
          derived.push(deriveTool({ method, path, ai, ...(route.schema ? { schema: route.schema as never } : {}) }));
        }
      });
      handler = createManifestHandler({ ...handlerOptions, load: () => built });
      fastify.addHook('onReady', async () => {
        build(withDerivedTools(manifest, derived));
        await handler.ready;
      });
    } else {
      handler = createManifestHandler({ ...handlerOptions, manifest: manifest as Manifest });
    }
  } catch (error) {
    done(error as Error);
    return;
  }
  fastify.route({ method: [...ALL_METHODS], url: handler.path, exposeHeadRoute: false, handler: manifestRoute(handler) });
  if (jobs) {
    const answer = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
      const response = await jobs.handle(toWebRequest(request.raw, reply.raw, request.body));
      if (response) return reply.send(response);
      reply.callNotFound();
      return reply;
    };
    for (const template of new Set(Object.values(jobs.routes))) {
      // Every method goes to `jobs.handle`, which answers 405 with `Allow` for the wrong ones.
      fastify.route({ method: [...ALL_METHODS], url: template.replace('{job_id}', ':job_id'), exposeHeadRoute: false, handler: answer });
    }
  }
  done();
}

/**
 * `onRoute` sees only routes registered after the hook, so a route with `config.ai` registered before
 * the plugin (or beside an un-awaited `register`) would be missing from the manifest without a word.
 * Fastify lists routes but not their `config`, so any earlier route is reported.
 */
function warnAboutEarlierRoutes(fastify: FastifyInstance): void {
  const earlier = fastify
    .printRoutes({ commonPrefix: false })
    .split('\n')
    .filter((line) => line.includes('('));
  if (earlier.length === 0) return;
  process.emitWarning(
    `aicapPlugin with deriveTools sees only routes registered after it; ${earlier.length} route(s) came before it and cannot become tools. Register the plugin first: \`await app.register(aicapPlugin, …)\` before any route.`,
    { code: 'AICAP_ROUTES_BEFORE_PLUGIN' },
  );
}

// The manifest route answers from the handler's plain-data decision: no Web `Request` or `Response`,
// and no promise when the answer is ready (a synchronous handler that sends and returns nothing).
function manifestRoute(handler: ManifestHandler): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> | undefined {
  const send = (reply: FastifyReply, answer: HttpAnswer): FastifyReply => reply.code(answer.status).headers(answer.headers).send(answer.body);
  return (request, reply) => {
    const decided = handler.decide(toManifestRequest(request.raw, reply.raw, requestPath(request.raw, handler.path)));
    if (decided instanceof Promise) return decided.then((answer) => send(reply, answer));
    send(reply, decided);
    return undefined;
  };
}

/** A handler that serves any fetch-style handler (the AI Catalog handler, your own) from a Fastify route. */
export function toFastifyHandler(handler: FetchHandler): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
  return async (request, reply) => reply.send(await handler(toWebRequest(request.raw, reply.raw, request.body)));
}

/** Starts a job from a Fastify route: sends 202 with `Location` as `JobStreams.start` does. */
export async function startJob(jobs: JobStreams, request: FastifyRequest, reply: FastifyReply, run: JobRunner): Promise<FastifyReply> {
  return reply.send(await jobs.start(toWebRequest(request.raw, reply.raw, request.body), run));
}

// The three symbols `fastify-plugin` would set: skip encapsulation, a display name and metadata.
Object.assign(plugin, {
  [Symbol.for('skip-override')]: true,
  [Symbol.for('fastify.display-name')]: 'aicap',
  [Symbol.for('plugin-meta')]: { name: 'aicap', fastify: '5.x' },
});

/**
 * Serves `/.well-known/ai-capabilities` (and optionally the job endpoints) from Fastify.
 * @example
 * ```ts
 * await app.register(aicapPlugin, { manifest: { schema_version: '0.1.0', service }, deriveTools: true });
 * app.post('/orders', { schema: { body }, config: { ai: { id: 'create_order', description: 'Creates an order' } } }, handler);
 * ```
 */
export const aicapPlugin: FastifyPluginCallback<AicapPluginOptions> = plugin;

export type { RouteAiConfig };
