import type { IncomingMessage } from 'node:http';

/**
 * The body of a Node request as a Web stream, read as the consumer pulls. Cancelling it (a handler
 * that stops at a size limit and answers 413) discards the rest of the body instead of destroying
 * the request, as Node does for a body nobody read: the client then receives the answer, and its
 * keep-alive connection stays usable. `Readable.toWeb` left that connection half-read, so the
 * client's next request on it hung until the server's timeout and failed with ECONNRESET.
 * @internal
 */
export function requestBodyStream(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  let settled = false;
  let onData: (chunk: Buffer) => void = () => undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      incoming.pause();
      onData = (chunk) => {
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
      };
      incoming.on('data', onData);
      incoming.once('end', () => {
        if (settled) return;
        settled = true;
        controller.close();
      });
      const fail = (error: Error): void => {
        if (settled) return;
        settled = true;
        controller.error(error);
      };
      incoming.once('error', fail);
      incoming.once('close', () => {
        if (!incoming.readableEnded) fail(new Error('The client closed the connection before the request body ended.'));
      });
    },
    pull() {
      incoming.resume();
    },
    cancel() {
      settled = true;
      incoming.off('data', onData);
      incoming.resume();
    },
  });
}
