import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AicapError } from '../../errors/aicap-error.js';
import { checkIntegerOption, invalidOptionError } from '../../errors/invalid-option-error.js';
import { optionTerm, worded } from '../../errors/message-term.js';

/** Options of {@link createLoopbackRedirectReceiver}. */
export interface LoopbackRedirectReceiverOptions {
  /**
  The path of the redirect URI.

  @default '/callback'
  */
  callbackPath?: string;
  /**
  How long `waitForCallback` waits for the browser, in milliseconds, before it rejects with `TIMEOUT`.

  @default 300000 (5 minutes)
  */
  timeoutInMs?: number;
}

/** A loopback HTTP listener for one authorization redirect (RFC 8252 §7.3). */
export interface LoopbackRedirectReceiver {
  /** `http://127.0.0.1:<port><callbackPath>`: pass it as `redirectUri`. */
  readonly redirectUri: string;
  /** Resolves with the full callback URL the browser was sent to (hand it to `completeUserAuthorization`); rejects with `TIMEOUT`. */
  waitForCallback(): Promise<string>;
  /** Stops listening. Safe to call more than once. */
  close(): Promise<void>;
}

const RECEIVED_PAGE = 'Authorization received. You can close this window and return to the application.\n';
const REFUSED_PAGE = 'The authorization was not granted. You can close this window; the application shows why.\n';

/** The implementation of `createLoopbackRedirectReceiver`, loaded on its first call (its TSDoc is on the export in `client/on-demand-exports.ts`). @internal */
export async function createLoopbackRedirectReceiver(options: LoopbackRedirectReceiverOptions = {}): Promise<LoopbackRedirectReceiver> {
  const callbackPath = options.callbackPath ?? '/callback';
  const timeoutInMs = options.timeoutInMs ?? 300_000;
  if (!callbackPath.startsWith('/')) throw invalidOptionError('callbackPath', 'a path starting with "/"', callbackPath);
  checkIntegerOption('timeoutInMs', timeoutInMs, { minimum: 1 });
  let deliver: (url: string) => void = () => undefined;
  const received = new Promise<string>((resolve) => (deliver = resolve));
  let redirectUri = '';
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', redirectUri);
    if (request.method !== 'GET' || url.pathname !== callbackPath) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found.\n');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
    response.end(url.searchParams.has('error') ? REFUSED_PAGE : RECEIVED_PAGE);
    deliver(url.href);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}${callbackPath}`;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }));
  return {
    redirectUri,
    async waitForCallback() {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new AicapError('TIMEOUT', worded`No authorization came back to ${redirectUri} within ${timeoutInMs} ms (${optionTerm('timeoutInMs')}); start the login again.`)),
          timeoutInMs,
        );
      });
      try {
        return await Promise.race([received, timedOut]);
      } finally {
        clearTimeout(timer);
        await close();
      }
    },
    close,
  };
}
