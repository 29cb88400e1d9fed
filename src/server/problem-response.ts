import type { HttpAnswer } from './http-answer.js';

/** The members of an RFC 9457 problem document that aicap writes. */
export interface ProblemDetails {
  /** URI that identifies the problem type. @default 'about:blank' */
  type?: string;
  /** Short summary of the problem type. */
  title: string;
  /** HTTP status, repeated in the body. */
  status: number;
  /** What happened in this occurrence and what to do. */
  detail?: string;
  /** Extension members. */
  [extension: string]: unknown;
}

/** The media type of an RFC 9457 problem document. */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

const encoder = new TextEncoder();

/**
 * An `application/problem+json` response (RFC 9457). Never echoes request data: callers put only
 * their own words in `detail`.
 */
export function problemResponse(problem: ProblemDetails, headers: HeadersInit = {}): Response {
  const answer = problemAnswer(problem);
  const responseHeaders = new Headers(headers);
  for (const [name, value] of Object.entries(answer.headers)) responseHeaders.set(name, value);
  return new Response(answer.body, { status: answer.status, headers: responseHeaders });
}

/**
 * {@link problemResponse} as plain data. `headers` must not hold `Content-Type` or `Cache-Control`
 * (the problem sets both).
 * @internal
 */
export function problemAnswer(problem: ProblemDetails, headers: Readonly<Record<string, string>> = {}): HttpAnswer {
  return {
    status: problem.status,
    headers: { ...headers, 'Content-Type': PROBLEM_MEDIA_TYPE, 'Cache-Control': 'no-store' },
    body: encoder.encode(JSON.stringify({ type: 'about:blank', ...problem })),
  };
}
