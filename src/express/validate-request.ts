import type { IncomingMessage } from 'node:http';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express';
import { AicapError } from '../errors/aicap-error.js';
import { isJsonMediaType, mediaTypeOf } from '../internal/parse-media-type.js';
import { readCappedBytes } from '../internal/read-capped-bytes.js';
import type { RouteDescription } from '../server/derive-tool.js';
import { problemAnswer } from '../server/problem-response.js';

// ajv-formats is CommonJS with `exports.default`; under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

/** Largest JSON body read when no body parser ran before the route, in bytes. */
const MAX_BODY_BYTES = 1 << 20;

// The route schemas are the application's own (trusted) code, so ajv's defaults are fine here. Query
// and path values arrive as text: their instance coerces `"5"` to 5 for `type: integer`, as Fastify does.
let instances: { body: Ajv; text: Ajv } | undefined;

/** One problem found in a request, as the 400 answer lists it. */
interface RequestProblem {
  /** `body`, `query` or `path`. */
  in: string;
  /** JSON Pointer into that part of the request. */
  pointer: string;
  /** What is wrong. */
  message: string;
}

const LOCATIONS = [
  ['params', 'path', 'text'],
  ['querystring', 'query', 'text'],
  ['body', 'body', 'body'],
] as const;

/**
 * A middleware that checks a request's path parameters, query and JSON body against the route's
 * declared schemas before its handlers run, answering `400` problem+json listing each problem (part
 * of the request, JSON Pointer, message) otherwise. A body no parser has read yet is read (up to
 * 1 MiB, JSON only: 415 for another media type, 413 past the limit) and left on `request.body`.
 * `undefined` when the route declares none of these schemas. Throws `INVALID_CONFIGURATION` at start-up for
 * a schema ajv cannot compile, naming the route.
 */
export function validateRequest(schema: RouteDescription['schema'], where: string): RequestHandler | undefined {
  const checks: Array<{ location: 'path' | 'query' | 'body'; validate: ValidateFunction }> = [];
  for (const [key, location, kind] of LOCATIONS) {
    const declared = schema?.[key];
    if (declared === undefined) continue;
    instances ??= {
      body: addFormats(new Ajv({ allErrors: true, strict: false, logger: false })),
      text: addFormats(new Ajv({ allErrors: true, strict: false, logger: false, coerceTypes: 'array' })),
    };
    try {
      checks.push({ location, validate: instances[kind].compile(declared as object) });
    } catch (error) {
      throw new AicapError('INVALID_CONFIGURATION', `${where}: the \`schema.${key}\` JSON Schema does not compile (${(error as Error).message}).`, { cause: error });
    }
  }
  if (checks.length === 0) return undefined;
  const needsBody = checks.some((check) => check.location === 'body');
  return (request, response, next) => {
    void (async () => {
      if (needsBody && request.body === undefined && !(await readBody(request, response))) return;
      const problems: RequestProblem[] = [];
      for (const { location, validate } of checks) {
        // Copies: coercion must not change what the handler sees (and Express 5 recomputes `query`).
        const value = location === 'body' ? request.body : structuredClone({ ...(location === 'path' ? request.params : request.query) });
        if (!validate(value)) problems.push(...(validate.errors ?? []).map((error) => toProblem(location, error)));
      }
      if (problems.length === 0) return next();
      const [first] = problems as [RequestProblem];
      send(
        response,
        400,
        'Bad Request',
        `The request ${first.in} at ${first.pointer || '/'} ${first.message}${problems.length > 1 ? ` (and ${problems.length - 1} more problem(s), listed in \`errors\`)` : ''}.`,
        { errors: problems.slice(0, 20) },
      );
    })().catch((error: unknown) => (next as NextFunction)(error));
  };
}

function toProblem(location: string, error: ErrorObject): RequestProblem {
  // A missing or unexpected member is pointed at by name, not at the object holding it.
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  const member = error.keyword === 'required' ? params.missingProperty : error.keyword === 'additionalProperties' ? params.additionalProperty : undefined;
  const suffix = member === undefined ? '' : `/${member.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  return { in: location, pointer: `${error.instancePath}${suffix}`, message: error.message ?? 'is invalid' };
}

/** Reads and parses a JSON body onto `request.body`; answers the problem itself and returns `false` when it cannot. */
async function readBody(request: ExpressRequest, response: ExpressResponse): Promise<boolean> {
  const incoming = request as IncomingMessage;
  const hasBody = incoming.headers['content-length'] !== undefined ? incoming.headers['content-length'] !== '0' : incoming.headers['transfer-encoding'] !== undefined;
  if (!hasBody) {
    request.body = undefined;
    return true;
  }
  if (!isJsonMediaType(mediaTypeOf(incoming.headers['content-type']))) {
    send(response, 415, 'Unsupported Media Type', 'Send the request body as application/json.');
    return false;
  }
  const { bytes, exceeded } = await readCappedBytes(incoming as AsyncIterable<Buffer>, MAX_BODY_BYTES);
  if (exceeded) {
    send(response, 413, 'Content Too Large', `The request body must not exceed ${MAX_BODY_BYTES} bytes.`);
    return false;
  }
  try {
    request.body = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as unknown;
    return true;
  } catch {
    send(response, 400, 'Bad Request', 'The request body is not valid JSON.');
    return false;
  }
}

function send(response: ExpressResponse, status: number, title: string, detail: string, extra: Record<string, unknown> = {}): void {
  const answer = problemAnswer({ title, status, detail, ...extra });
  response.writeHead(answer.status, answer.headers).end(answer.body);
}
