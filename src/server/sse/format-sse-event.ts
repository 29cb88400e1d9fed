/** The media type of a Server-Sent Events stream. */
export const SSE_MEDIA_TYPE = 'text/event-stream';

/** The headers of every SSE answer: no caching, and no buffering by proxies that honour `X-Accel-Buffering`. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': `${SSE_MEDIA_TYPE}; charset=utf-8`,
  'Cache-Control': 'no-store',
  'X-Accel-Buffering': 'no',
};

/**
 * One SSE event block with `id:`, `event:` and JSON `data:`. JSON text never holds a raw line break,
 * so one `data:` line carries it whole.
 */
export function formatSseEvent(id: number, event: string, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A comment block (`: text`), which readers ignore; keeps idle connections alive. */
export function formatSseComment(text: string): string {
  return `: ${text.replace(/[\r\n]+/g, ' ')}\n\n`;
}

/** The `retry:` field telling a reader how long to wait before reconnecting, in milliseconds. */
export function formatSseRetry(retryInMs: number): string {
  return `retry: ${Math.max(0, Math.trunc(retryInMs))}\n\n`;
}
