import { parseMediaType } from '../../internal/parse-media-type.js';
import { SSE_MEDIA_TYPE } from './format-sse-event.js';

/** Whether a request's `Accept` lists `text/event-stream` without refusing it through `q=0`. */
export function acceptsEventStream(request: { headers: { get(name: string): string | null } }): boolean {
  const accept = request.headers.get('Accept') ?? '';
  return accept.split(',').some((part) => {
    const { essence, parameters } = parseMediaType(part);
    return essence === SSE_MEDIA_TYPE && !/^0(?:\.0*)?$/.test(parameters['q'] ?? '');
  });
}
