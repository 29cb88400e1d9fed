import { createRequire } from 'node:module';
import type { Agent as UndiciAgent, buildConnector as undiciBuildConnector, Dispatcher, errors as undiciErrors, fetch as undiciFetch, Pool as UndiciPool } from 'undici';

// undici's entry loads every dispatcher, the mocks, the caches, WebSocket, EventSource and fetch
// (about 3× what a request needs, the largest single cost of a CLI process's start). The guarded
// fetch needs an `Agent` with its own connector (the SSRF check and the pinned address live there:
// Node's built-in fetch cannot take one) and `request`: those files are loaded alone, by the first
// request that needs them (manifests go through `node:http`, so a process that only discovers loads
// none), and the whole entry only when a streaming `fetch` runs. undici has no `exports` map: these
// paths are its files as published (`create-guarded-fetch` tests fail if a version moves them).
const load = createRequire(import.meta.url);

interface UndiciParts {
  Agent: typeof UndiciAgent;
  Pool: typeof UndiciPool;
  buildConnector: typeof undiciBuildConnector;
  ClientDestroyedError: typeof undiciErrors.ClientDestroyedError;
}

let parts: UndiciParts | undefined;

/** undici's `Agent`, `Pool`, `buildConnector` and `ClientDestroyedError` (their own modules, without the rest of undici), loaded on first use. */
export function undiciParts(): UndiciParts {
  parts ??= {
    Agent: load('undici/lib/dispatcher/agent.js') as typeof UndiciAgent,
    Pool: load('undici/lib/dispatcher/pool.js') as typeof UndiciPool,
    buildConnector: load('undici/lib/core/connect.js') as typeof undiciBuildConnector,
    ClientDestroyedError: (load('undici/lib/core/errors.js') as typeof undiciErrors).ClientDestroyedError,
  };
  return parts;
}

// One for the process: see `closedError`.
let closed: Error | undefined;

/**
 * The error an idle agent is destroyed with instead of closed: `close()` ends in `destroy()` anyway, and
 * without an error that makes a `ClientDestroyedError` (with its stack trace) for the agent, the pool
 * and the client, the largest part of closing. It reaches no request (none is in flight) and nothing
 * reads it. @internal
 */
export function closedError(): Error {
  closed ??= new (undiciParts().ClientDestroyedError)();
  return closed;
}

let requestOnDispatcher: ((this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>) | undefined;

/** `dispatcher.request(options)` without undici's entry (which puts `request` on every dispatcher). */
export function requestWith(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  requestOnDispatcher ??= load('undici/lib/api/api-request.js') as (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  return requestOnDispatcher.call(dispatcher, options);
}

let loadedFetch: typeof undiciFetch | undefined;

/** undici's `fetch`, its entry loaded by the first call (the first streaming request). */
export function loadFetch(): typeof undiciFetch {
  loadedFetch ??= (load('undici') as { fetch: typeof undiciFetch }).fetch;
  return loadedFetch;
}

/** undici's `fetch`, through {@link loadFetch}. */
export function fetchWith(...parameters: Parameters<typeof undiciFetch>): ReturnType<typeof undiciFetch> {
  return loadFetch()(...parameters);
}
