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

/**
 * An `application/problem+json` response (RFC 9457). Never echoes request data: callers put only
 * their own words in `detail`.
 */
export function problemResponse(problem: ProblemDetails, headers: HeadersInit = {}): Response {
  const responseHeaders = new Headers(headers);
  responseHeaders.set('Content-Type', PROBLEM_MEDIA_TYPE);
  responseHeaders.set('Cache-Control', 'no-store');
  return new Response(JSON.stringify({ type: 'about:blank', ...problem }), { status: problem.status, headers: responseHeaders });
}
