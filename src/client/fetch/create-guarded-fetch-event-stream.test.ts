import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createGuardedFetch } from './create-guarded-fetch.js';

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server that sends a chunk every `intervalInMs`, `count` times, with the given content type. */
async function drip(contentType: string, intervalInMs: number, count: number): Promise<string> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': contentType });
    // Headers now, not with the first chunk: the total deadline must not race a late first write.
    response.flushHeaders();
    let sent = 0;
    const timer = setInterval(() => {
      response.write(contentType === 'text/event-stream' ? ': heartbeat\n\n' : ' ');
      if (++sent === count) {
        clearInterval(timer);
        response.end(contentType === 'text/event-stream' ? 'data: done\n\n' : '{}');
      }
    }, intervalInMs);
    response.on('close', () => clearInterval(timer));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

describe('createGuardedFetch and long-lived event streams', () => {
  it('lets a heartbeating event stream outlive the total deadline', async () => {
    const url = await drip('text/event-stream', 50, 20);
    const guarded = createGuardedFetch({ timeouts: { totalInMs: 400, bodyIdleInMs: 2_000 }, isTrustedOrigin: () => true });
    try {
      const response = await guarded(url);
      const text = await response.text();
      expect(text.endsWith('data: done\n\n')).toBe(true);
      expect(text.match(/: heartbeat/g)).toHaveLength(20);
    } finally {
      await guarded.close();
    }
  });

  it('still ends any other slow body at the total deadline', async () => {
    const url = await drip('application/json', 50, 12);
    const guarded = createGuardedFetch({ timeouts: { totalInMs: 250, bodyIdleInMs: 400 }, isTrustedOrigin: () => true });
    try {
      const response = await guarded(url);
      await expect(response.text()).rejects.toMatchObject({ code: 'TIMEOUT', phase: 'total' });
    } finally {
      await guarded.close();
    }
  });

  it('ends a silent event stream at the body-idle deadline', async () => {
    const url = await drip('text/event-stream', 600, 2);
    const guarded = createGuardedFetch({ timeouts: { totalInMs: 5_000, bodyIdleInMs: 200 }, isTrustedOrigin: () => true });
    try {
      const response = await guarded(url);
      await expect(response.text()).rejects.toMatchObject({ code: 'TIMEOUT', phase: 'body-idle' });
    } finally {
      await guarded.close();
    }
  });
});
