import { problemResponse } from '../problem-response.js';

/** A JSON answer of a job endpoint; never cached, since a job changes under it. */
export function jobJson(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers } });
}

/** A problem+json answer of a job endpoint, with its string `code` beside the RFC 9457 members. */
export function jobProblem(status: number, title: string, code: string, detail: string, headers: Record<string, string> = {}, extra: Record<string, unknown> = {}): Response {
  return problemResponse({ title, status, detail, code, ...extra }, headers);
}
