import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { buildConnector } from 'undici';
import { SsrfBlockedError } from '../errors/ssrf-blocked-error.js';
import { createAddressPolicy } from './address-policy.js';
import { createOriginTrust } from './create-origin-trust.js';
import { createPinnedConnector, type ConnectTarget, type LookupFunction, type ResolvedAddress } from './create-pinned-connector.js';

// The connector against a real TCP server on 127.0.0.1: names are mapped by an injected lookup, and
// the server counts the sockets that actually reached it, so "refused" means nothing was dialed.

let server: Server;
let port: number;
let accepted = 0;
const open = new Set<Socket>();

beforeAll(async () => {
  server = createServer((socket) => {
    accepted++;
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  for (const socket of open) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

interface Setup {
  allow?: string[];
  typed?: string[];
  allowPrivateNames?: boolean;
  lookup?: LookupFunction;
  beforeConnect?: (target: ConnectTarget) => void;
  timeoutInMs?: number;
}

function connector(setup: Setup) {
  const policy = createAddressPolicy(setup.allow ?? [], 'network.allow');
  const connected: ConnectTarget[] = [];
  const connect = createPinnedConnector({
    policy,
    trust: createOriginTrust({
      isTrustedOrigin: (origin) => (setup.typed ?? []).includes(origin),
      policy,
      allowPrivateNames: setup.allowPrivateNames ?? false,
      allowPrivateNamesOption: 'network.allowPrivateNames',
    }),
    lookup: setup.lookup,
    beforeConnect: (target) => {
      connected.push(target);
      setup.beforeConnect?.(target);
    },
    timeoutInMs: setup.timeoutInMs ?? 2_000,
  });
  return { connected, dial: (hostname: string, options: { protocol?: string; port?: string | number } = {}) => dial(connect, hostname, options.protocol ?? 'http:', options.port ?? port) };
}

/** Runs the connector once; resolves to the socket or rejects with the error it reported. */
function dial(connect: buildConnector.connector, hostname: string, protocol: string, targetPort: string | number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    connect({ hostname, host: `${hostname}:${targetPort}`, protocol, port: String(targetPort), servername: undefined, localAddress: null, httpSocket: undefined } as never, (error, socket) => {
      if (error) reject(error);
      else resolve(socket as Socket);
    });
  });
}

const mapped = (addresses: ResolvedAddress[]) => {
  const asked: string[] = [];
  const lookup: LookupFunction = async (hostname) => (asked.push(hostname), addresses);
  return { asked, lookup };
};

async function refusal(promise: Promise<unknown>): Promise<SsrfBlockedError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(SsrfBlockedError);
  return error as SsrfBlockedError;
}

/** Sockets the server accepted while `run` ran (for refusals: nothing reached it, since nothing was dialed). */
async function acceptedAfter(run: () => Promise<unknown>): Promise<number> {
  const before = accepted;
  await run();
  return accepted - before;
}

/** Dials and waits until the server has the socket: proof the connection reached it. */
async function reachesServer(go: () => Promise<Socket>): Promise<{ remoteAddress: string | undefined; remotePort: number | undefined }> {
  const arrived = once(server, 'connection');
  const socket = await go();
  await arrived;
  const { remoteAddress, remotePort } = socket;
  socket.destroy();
  return { remoteAddress, remotePort };
}

describe('createPinnedConnector', () => {
  it('dials the address the lookup gave and was checked, reporting it to beforeConnect', async () => {
    const { lookup, asked } = mapped([{ address: '127.0.0.1', family: 4 }]);
    const { dial: go, connected } = connector({ allow: ['127.0.0.1'], lookup });
    const socket = await reachesServer(() => go('service.test'));
    expect(socket.remoteAddress).toBe('127.0.0.1');
    expect(asked).toEqual(['service.test']);
    expect(connected).toEqual([{ hostname: 'service.test', address: '127.0.0.1', port, protocol: 'http:' }]);
  });

  it('refuses a name resolving to loopback, naming origin, name, address and range, and dials nothing', async () => {
    const { lookup } = mapped([{ address: '127.0.0.1', family: 4 }]);
    const { dial: go, connected } = connector({ lookup });
    let error: SsrfBlockedError | undefined;
    expect(await acceptedAfter(async () => (error = await refusal(go('service.test'))))).toBe(0);
    expect(error).toMatchObject({ code: 'SSRF_BLOCKED', range: 'loopback', address: '127.0.0.1', url: `http://service.test:${port}/` });
    expect(error?.message).toContain('service.test resolves to 127.0.0.1, which is loopback');
    expect(error?.message).toContain('`allow`');
    expect(connected).toEqual([]);
  });

  it.each<[string, ResolvedAddress[]]>([
    [
      'public first, loopback second',
      [
        { address: '93.184.216.34', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
    ],
    [
      'public first, link-local metadata second',
      [
        { address: '93.184.216.34', family: 4 },
        { address: '169.254.169.254', family: 4 },
      ],
    ],
    ['an IPv4-mapped IPv6 loopback', [{ address: '::ffff:127.0.0.1', family: 6 }]],
  ])('refuses a name whose answers mix in a special address (%s), though the dialed one is public', async (_case, addresses) => {
    const { dial: go, connected } = connector({ lookup: mapped(addresses).lookup });
    await refusal(go('mixed.test'));
    expect(connected).toEqual([]);
  });

  it('resolves and checks again on every connection, so a rebinding name is caught at the second', async () => {
    let calls = 0;
    const lookup: LookupFunction = async () => (calls++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.0.0.5', family: 4 }]);
    const { dial: go } = connector({ allow: ['127.0.0.1'], lookup });
    (await go('rebind.test')).destroy();
    const error = await refusal(go('rebind.test'));
    expect(error).toMatchObject({ range: 'private', address: '10.0.0.5' });
    expect(calls).toBe(2);
  });

  it('lets a typed IP-literal origin reach loopback without any lookup', async () => {
    const lookup: LookupFunction = async () => {
      throw new Error('an address literal must not be resolved');
    };
    const { dial: go } = connector({ typed: [`http://127.0.0.1:${port}`], lookup });
    expect((await reachesServer(() => go('127.0.0.1'))).remotePort).toBe(port);
  });

  it('keeps a typed DNS name public-only, and says which option would allow it', async () => {
    const { lookup } = mapped([{ address: '127.0.0.1', family: 4 }]);
    const error = await refusal(connector({ typed: [`http://dev.test:${port}`], lookup }).dial('dev.test'));
    expect(error.message).toContain('`network.allowPrivateNames`');
  });

  it('lets a typed DNS name reach loopback with allowPrivateNames, and still never link-local', async () => {
    const typed = [`http://dev.test:${port}`];
    const loopback = connector({ typed, allowPrivateNames: true, lookup: mapped([{ address: '127.0.0.1', family: 4 }]).lookup });
    expect((await reachesServer(() => loopback.dial('dev.test'))).remoteAddress).toBe('127.0.0.1');
    const metadata = connector({ typed, allowPrivateNames: true, lookup: mapped([{ address: '169.254.169.254', family: 4 }]).lookup });
    expect(await refusal(metadata.dial('dev.test'))).toMatchObject({ range: 'linkLocal' });
  });

  it('does not let trust for one port reach another port of the same host', async () => {
    const { lookup } = mapped([{ address: '127.0.0.1', family: 4 }]);
    await refusal(connector({ typed: ['http://dev.test:1'], allowPrivateNames: true, lookup }).dial('dev.test'));
  });

  it('names the origin without the default port, and with brackets for an IPv6 literal', async () => {
    const { lookup } = mapped([{ address: '10.0.0.1', family: 4 }]);
    expect((await refusal(connector({ lookup }).dial('service.test', { protocol: 'https:', port: '' }))).url).toBe('https://service.test/');
    expect((await refusal(connector({ lookup }).dial('service.test', { protocol: 'http:', port: 80 }))).url).toBe('http://service.test/');
    expect((await refusal(connector({}).dial('[::1]', { port: 8080 }))).url).toBe('http://[::1]:8080/');
  });

  it('fails a name that resolves to no address, saying so', async () => {
    await expect(connector({ lookup: mapped([]).lookup }).dial('empty.test')).rejects.toThrow('empty.test resolved to no address');
  });

  it('bounds a lookup that never answers by the connect timeout, as a connect timeout', async () => {
    const lookup: LookupFunction = () => new Promise(() => {});
    const error = await connector({ lookup, timeoutInMs: 30 })
      .dial('slow.test')
      .then(
        () => undefined,
        (reason: unknown) => reason as Error & { code?: string },
      );
    expect(error?.message).toBe('DNS lookup of slow.test timed out');
    expect(error?.code).toBe('UND_ERR_CONNECT_TIMEOUT');
  });

  it('passes a lookup failure on as an Error, whatever was thrown', async () => {
    const lookup = (() => Promise.reject('ENOTFOUND as a string')) as unknown as LookupFunction;
    await expect(connector({ lookup }).dial('gone.test')).rejects.toThrow('ENOTFOUND as a string');
  });

  it('lets beforeConnect veto a checked address: nothing is dialed', async () => {
    const { lookup } = mapped([{ address: '127.0.0.1', family: 4 }]);
    const { dial: go } = connector({
      allow: ['127.0.0.1'],
      lookup,
      beforeConnect: () => {
        throw new Error('egress denied by audit');
      },
    });
    expect(await acceptedAfter(() => expect(go('service.test')).rejects.toThrow('egress denied by audit'))).toBe(0);
  });
});
