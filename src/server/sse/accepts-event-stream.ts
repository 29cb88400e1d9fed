import { SSE_MEDIA_TYPE } from './format-sse-event.js';

/** Whether a request's `Accept` lists `text/event-stream` without refusing it through `q=0`. */
export function acceptsEventStream(request: { headers: { get(name: string): string | null } }): boolean {
  const accept = request.headers.get('Accept') ?? '';
  return accept.split(',').some((part) => {
    const [type, ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    return type === SSE_MEDIA_TYPE && !parameters.some((parameter) => /^q\s*=\s*0(?:\.0*)?$/.test(parameter));
  });
}
