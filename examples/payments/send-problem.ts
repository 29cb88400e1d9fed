/**
 * How the Payments example answers on plain `node:http`: JSON bodies, stored answers (the idempotency
 * cache replays them byte for byte) and RFC 9457 problem details with the manifest's `type` URIs.
 * @module
 */

import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';

/** Prefix of every problem `type` the manifest declares. */
export const PROBLEM_BASE = 'https://api.example.com/problems/';

/** An answer kept for replay: the status and the JSON body. */
export interface StoredAnswer {
  status: number;
  body: unknown;
}

/** A problem+json body: `type` from the slug, a fresh `instance`. */
export function problemBody(status: number, slug: string, title: string, detail: string): Record<string, unknown> {
  return { type: `${PROBLEM_BASE}${slug}`, title, status, detail, instance: `urn:uuid:${randomUUID()}` };
}

/** Answers with a problem+json body; `headers` are set first (`WWW-Authenticate`, `Retry-After`). */
export function sendProblem(outgoing: ServerResponse, status: number, slug: string, title: string, detail: string, headers: Record<string, string> = {}): void {
  sendStored(outgoing, { status, body: problemBody(status, slug, title, detail) }, headers);
}

/** Answers with a stored answer: problem+json from 400 up, JSON below. */
export function sendStored(outgoing: ServerResponse, stored: StoredAnswer, headers: Record<string, string> = {}): void {
  const type = stored.status >= 400 ? 'application/problem+json' : 'application/json';
  sendText(outgoing, stored.status, `${type}; charset=utf-8`, JSON.stringify(stored.body), headers);
}

/** Answers 200 (or `status`) with a JSON body. */
export function sendJson(outgoing: ServerResponse, body: unknown, status = 200, headers: Record<string, string> = {}): void {
  sendText(outgoing, status, 'application/json; charset=utf-8', JSON.stringify(body), headers);
}

/** Answers with a text body of the given media type; `Content-Length` is the byte length. */
export function sendText(outgoing: ServerResponse, status: number, contentType: string, text: string, headers: Record<string, string> = {}): void {
  for (const [name, value] of Object.entries(headers)) outgoing.setHeader(name, value);
  outgoing.statusCode = status;
  outgoing.setHeader('Content-Type', contentType);
  outgoing.setHeader('Content-Length', Buffer.byteLength(text));
  outgoing.end(text);
}
