/**
 * A real `text/event-stream` body for stage tests, without a socket: `push` writes text, `drop` cuts the
 * stream mid-event (as a reset connection would), `end` closes it. Aborting `signal` errors the body
 * as `fetch` does when its request is aborted, so a stage's idle timer and `close` are exercised.
 */
export interface ScriptedStream {
  response: Response;
  push(text: string): void;
  drop(): void;
  end(): void;
}

export function scriptedEventStream(signal?: AbortSignal | null, headers: Record<string, string> = {}): ScriptedStream {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    start(given) {
      controller = given;
    },
    cancel() {
      open = false;
    },
  });
  const fail = (reason: unknown): void => {
    if (!open) return;
    open = false;
    controller.error(reason);
  };
  signal?.addEventListener('abort', () => fail(signal.reason), { once: true });
  return {
    response: new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream', ...headers } }),
    push(text) {
      if (open) controller.enqueue(encoder.encode(text));
    },
    drop: () => fail(new TypeError('terminated')),
    end() {
      if (!open) return;
      open = false;
      controller.close();
    },
  };
}
