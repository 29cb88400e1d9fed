/**
 * A small method + path router for the example's `node:http` server: `:name` segments become
 * parameters (percent-decoded), literal segments match case-insensitively, a trailing slash is
 * ignored, and a GET route answers HEAD too (Node sends no body for HEAD).
 * @module
 */

/** A route's handler: the request context and the path parameters. */
export type RouteHandler<Context> = (context: Context, params: Record<string, string>) => void | Promise<void>;

/** A router: register routes with `add`, look one up with `find`. */
export interface Router<Context> {
  /** Registers `handler` for `method` and `pattern` (`/accounts/:account_id/summary`). */
  add(method: string, pattern: string, handler: RouteHandler<Context>): Router<Context>;
  /** The first route matching, with its parameters; `undefined` when none does. */
  find(method: string, path: string): { handler: RouteHandler<Context>; params: Record<string, string> } | undefined;
}

interface Route<Context> {
  method: string;
  segments: string[];
  handler: RouteHandler<Context>;
}

/** Creates an empty {@link Router}. */
export function createRouter<Context>(): Router<Context> {
  const routes: Array<Route<Context>> = [];
  const router: Router<Context> = {
    add(method, pattern, handler) {
      routes.push({ method, segments: splitPath(pattern), handler });
      return router;
    },
    find(method, path) {
      const segments = splitPath(path);
      for (const route of routes) {
        if (route.method !== method && !(method === 'HEAD' && route.method === 'GET')) continue;
        const params = matchSegments(route.segments, segments);
        if (params) return { handler: route.handler, params };
      }
      return undefined;
    },
  };
  return router;
}

function splitPath(path: string): string[] {
  return path.split('/').filter((segment, index, all) => index > 0 && !(segment === '' && index === all.length - 1));
}

function matchSegments(pattern: readonly string[], segments: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, expected] of pattern.entries()) {
    const actual = segments[index]!;
    if (expected.startsWith(':')) {
      if (actual === '') return undefined;
      try {
        params[expected.slice(1)] = decodeURIComponent(actual);
      } catch {
        return undefined;
      }
    } else if (expected.toLowerCase() !== actual.toLowerCase()) return undefined;
  }
  return params;
}
