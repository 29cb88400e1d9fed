import type { Dispatcher } from 'undici';
import { requestWith } from '../../internal/http/undici-parts.js';
import type { BufferedTransport, TransportResponse } from './buffered-transport.js';
import type { LazyAgent } from './create-lazy-agent.js';

/** Buffered requests through undici's `request` on the fetch's own (lazy) agent, which also closes it. @internal */
export function createUndiciTransport(pool: LazyAgent): BufferedTransport {
  return {
    async request({ url, method, headers, body, signal }): Promise<TransportResponse> {
      const data = await requestWith(pool.agent(), {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        signal,
      });
      return { statusCode: data.statusCode, statusText: data.statusText, headers: data.headers, body: data.body };
    },
    prepare: () => void pool.agent(),
    close: () => pool.close(),
  };
}
