/**
 * A real `text/event-stream` body for stage tests, without a socket: `push` writes text, `drop` cuts the
 * stream (as a reset connection would), `end` closes it. Each is handed to the reader in order, when it
 * reads (a drop after a push drops after that text was read, as on a socket). Aborting `signal`
 * errors the body at once, as `fetch` does when its request is aborted, so a stage's idle timer and
 * `close` are exercised.
 */
export interface ScriptedStream {
  response: Response;
  push(text: string): void;
  drop(): void;
  end(): void;
  /** True once the reader cancelled the body (a stage releasing its connection). */
  readonly cancelled: boolean;
}

type Step = { text: string } | { drop: true } | { end: true };

export function scriptedEventStream(signal?: AbortSignal | null, headers: Record<string, string> = {}): ScriptedStream {
  const encoder = new TextEncoder();
  const steps: Step[] = [];
  let wake: (() => void) | undefined;
  let aborted: unknown;
  let isAborted = false;
  let cancelled = false;
  const next = (): void => {
    wake?.();
    wake = undefined;
  };
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (steps.length === 0 && !isAborted) await new Promise<void>((resolve) => (wake = resolve));
        if (isAborted) return controller.error(aborted);
        const step = steps.shift() as Step;
        if ('text' in step) controller.enqueue(encoder.encode(step.text));
        else if ('drop' in step) controller.error(new TypeError('terminated'));
        else controller.close();
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  signal?.addEventListener(
    'abort',
    () => {
      isAborted = true;
      aborted = signal.reason;
      next();
    },
    { once: true },
  );
  const add = (step: Step): void => {
    steps.push(step);
    next();
  };
  return {
    response: new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream', ...headers } }),
    push: (text) => add({ text }),
    drop: () => add({ drop: true }),
    end: () => add({ end: true }),
    get cancelled() {
      return cancelled;
    },
  };
}
