import type { IncomingMessage, ServerResponse } from 'node:http';
import { readCappedBytes } from '../internal/read-capped-bytes.js';
import type { InspectorSession } from './inspector-session.js';

/** What one API request needs. */
export interface InspectorApiContext {
  request: IncomingMessage;
  response: ServerResponse;
  url: URL;
  session: InspectorSession;
  answerJson(response: ServerResponse, status: number, body: unknown): void;
}

// A pasted manifest for the diff is the largest body the page sends.
const MAX_BODY_IN_BYTES = 16 * 1_048_576;
const HEARTBEAT_IN_MS = 15_000;

type Body = Record<string, unknown>;
type Route = (session: InspectorSession, body: Body) => Promise<unknown> | unknown;

const POST_ROUTES: Record<string, Route> = {
  '/api/load': (session, body) => session.load(requiredString(body, 'source'), typeof body['token'] === 'string' && body['token'] !== '' ? { token: body['token'] } : {}),
  '/api/tool': (session, body) => session.tool(requiredString(body, 'toolId')),
  '/api/call': (session, body) => session.call(requiredString(body, 'toolId'), argumentsOf(body), body['approved'] === true),
  '/api/jobs': (session, body) => session.startJob(requiredString(body, 'toolId'), argumentsOf(body), body['approved'] === true),
  '/api/jobs/respond': (session, body) => session.respond(requiredString(body, 'jobId'), body['answer']),
  '/api/select': (session, body) => session.select(requiredString(body, 'query'), typeof body['limit'] === 'number' ? Math.min(50, Math.max(1, Math.floor(body['limit']))) : 5),
  '/api/scopes': (session, body) => session.scopes(Array.isArray(body['scopes']) ? body['scopes'].filter((scope): scope is string => typeof scope === 'string') : []),
  '/api/diff': (session, body) => session.diff(body['pinned'] === true ? { pinned: true } : { manifestText: requiredString(body, 'manifestText') }),
};

/** The inspector's JSON API: reads under GET, actions under POST (JSON bodies, capped). */
export async function routeInspectorApi(context: InspectorApiContext): Promise<void> {
  const { request, response, url, session, answerJson } = context;
  if (request.method === 'GET' && url.pathname === '/api/view') return answerJson(response, 200, { view: session.view() ?? null });
  if (request.method === 'GET' && url.pathname === '/api/jobs/events') return streamJobEvents(context, url.searchParams.get('id') ?? '');
  const route = POST_ROUTES[url.pathname];
  if (!route || request.method !== 'POST') return answerJson(response, 404, { error: { code: 'NOT_FOUND', message: `No API ${request.method ?? ''} ${url.pathname}.` } });
  try {
    const body = await readJsonBody(request);
    answerJson(response, 200, await route(session, body));
  } catch (error) {
    const status = (error as { status?: number }).status ?? 400;
    answerJson(response, status, { error: { code: (error as { code?: string }).code ?? 'ERROR', message: (error as Error).message } });
  }
}

function streamJobEvents(context: InspectorApiContext, jobId: string): void {
  const { response, session } = context;
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  const send = (event: unknown): void => void response.write(`data: ${JSON.stringify(event)}\n\n`);
  const unsubscribe = session.subscribe(jobId, (event) => {
    send(event);
    if ((event as { kind?: string }).kind === 'end') response.end();
  });
  if (!unsubscribe) {
    send({ kind: 'error', code: 'NOT_FOUND', message: `No job ${JSON.stringify(jobId)} in this inspector run.` });
    return void response.end();
  }
  const heartbeat = setInterval(() => response.write(': heartbeat\n\n'), HEARTBEAT_IN_MS);
  response.on('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
  });
}

async function readJsonBody(request: IncomingMessage): Promise<Body> {
  const { bytes, exceeded } = await readCappedBytes(request as AsyncIterable<Buffer>, MAX_BODY_IN_BYTES);
  if (exceeded) throw Object.assign(new Error(`The request body is larger than ${MAX_BODY_IN_BYTES} bytes.`), { status: 413 });
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    throw Object.assign(new Error('The request body is not JSON.'), { status: 400 });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw Object.assign(new Error('The request body must be a JSON object.'), { status: 400 });
  return value as Body;
}

function requiredString(body: Body, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value === '') throw Object.assign(new Error(`\`${name}\` must be a non-empty string.`), { status: 400 });
  return value;
}

function argumentsOf(body: Body): Record<string, unknown> {
  const value = body['arguments'] ?? {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw Object.assign(new Error('`arguments` must be a JSON object.'), { status: 400 });
  return value as Record<string, unknown>;
}
