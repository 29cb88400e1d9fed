import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type ClientRequestArgs, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { connect as netConnect, isIP, type NetConnectOpts, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { CONNECT_TIMEOUT_CODE, originOf, resolveCheckedAddress, type PinnedConnectorSettings } from '../ssrf/create-pinned-connector.js';
import type { BufferedTransport, TransportRequest, TransportResponse } from './buffered-transport.js';

// An idle kept-alive connection is closed after 4 s, or a second before the server's own
// `Keep-Alive: timeout=` if that is sooner (Node applies the hint only under an agent timeout): a
// request sent on a connection the server is closing fails. undici's default is the same 4 s.
const AGENT_OPTIONS = { keepAlive: true, timeout: 4000 };

/** Deadlines of {@link createNodeTransport} besides the connect timeout of the connector settings (0 turns one off). @internal */
export interface NodeTransportSettings {
  connect: PinnedConnectorSettings;
  headersInMs: number;
  bodyIdleInMs: number;
}

/**
 * A buffered transport on Node's own HTTP client, which the client's manifest requests use. Node's
 * built-in modules come compiled (a code cache in the binary) and its HTTP parser is native, where
 * undici's first request in a process compiles its JavaScript, its WebAssembly parser and warms both
 * up: a new process's first request of an 11 KB body cost 8 ms of CPU here against undici's 24, of a
 * 1 MB manifest 19 against 38, and a second 1 MB request 11 against 17-24. Warm and small, undici is
 * the cheaper (25-60 µs less a request here), so calls, many and small, keep it. Each new connection
 * resolves the host itself, checks every address against the policy and dials the first
 * (`resolveCheckedAddress`, as undici's pinned connector does), so a second resolution cannot swap
 * it. Connections are kept alive and reused per origin.
 * @internal
 */
export function createNodeTransport(settings: NodeTransportSettings): BufferedTransport {
  let agents: { http: HttpAgent; https: HttpsAgent } | undefined;
  let inFlight = 0;
  let closing: Promise<void> | undefined;
  let drained: (() => void) | undefined;
  const agentsNow = (): { http: HttpAgent; https: HttpsAgent } =>
    (agents ??= {
      http: pinnedAgent(new HttpAgent(AGENT_OPTIONS), settings.connect, 'http:'),
      https: pinnedAgent(new HttpsAgent(AGENT_OPTIONS), settings.connect, 'https:'),
    });
  const settle = (): void => {
    inFlight--;
    if (inFlight === 0) drained?.();
  };
  return {
    request(request) {
      if (closing !== undefined) return Promise.reject(new Error('The client is closed: no request can be sent.'));
      inFlight++;
      return send(request, agentsNow(), settings, settle);
    },
    prepare() {
      agentsNow();
    },
    close() {
      closing ??= (inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (drained = resolve))).then(() => {
        agents?.http.destroy();
        agents?.https.destroy();
      });
      return closing;
    },
  };
}

/**
 * Sends one request and resolves with its answer once the headers are in. `settle` runs once, when the
 * request is over: failed, or its body read, discarded or destroyed.
 */
function send(request: TransportRequest, agents: { http: HttpAgent; https: HttpsAgent }, settings: NodeTransportSettings, settle: () => void): Promise<TransportResponse> {
  const { url, signal } = request;
  return new Promise<TransportResponse>((resolve, reject) => {
    let settled = false;
    const done = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(headersTimer);
      signal?.off('abort', onAbort);
      settle();
    };
    let headersTimer: NodeJS.Timeout | undefined;
    let outgoing: ClientRequest;
    try {
      // An options object rather than the URL, which Node would turn into one.
      const options = {
        method: request.method,
        headers: request.headers,
        hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
      };
      outgoing = url.protocol === 'https:' ? httpsRequest({ ...options, agent: agents.https }) : httpRequest({ ...options, agent: agents.http });
    } catch (error) {
      // Node checks header names and values as the request is made.
      done();
      reject(error as Error);
      return;
    }
    const onAbort = (): void => {
      const reason = signal?.reason;
      outgoing.destroy(reason instanceof Error ? reason : new Error('The request was aborted.'));
    };
    // `on`: an error after the answer (a connection cut while the body is read) reaches the body's reader too.
    outgoing.on('error', (error) => {
      done();
      reject(error);
    });
    let answered = false;
    // The answer's deadline runs from the moment the request is out, as undici's `headersTimeout` does
    // (a server may answer before a large body is all out: then there is nothing left to wait for).
    outgoing.once('finish', () => {
      if (settings.headersInMs > 0 && !answered && !settled) headersTimer = setTimeout(() => outgoing.destroy(request.timeoutError('headers')), settings.headersInMs);
    });
    outgoing.once('response', (response: IncomingMessage) => {
      answered = true;
      clearTimeout(headersTimer);
      // An idle socket while the body is read: `setTimeout` of the request unhooks itself when the
      // connection goes back to the pool, where another request may use it.
      if (settings.bodyIdleInMs > 0) outgoing.setTimeout(settings.bodyIdleInMs, () => response.destroy(request.timeoutError('body-idle')));
      response.once('close', done);
      resolve({ statusCode: response.statusCode ?? 0, statusText: response.statusMessage ?? '', headers: response.headers, body: response });
    });
    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.once('abort', onAbort);
    outgoing.end(request.body ?? undefined);
  });
}

type CreateConnectionCallback = (error: Error | null, socket: Duplex) => void;

/** An agent (of `node:http` or `node:https`) whose new connections are {@link pinnedConnection}s. */
function pinnedAgent<A extends HttpAgent>(agent: A, pinning: PinnedConnectorSettings, protocol: 'http:' | 'https:'): A {
  agent.createConnection = (options: ClientRequestArgs, callback?: CreateConnectionCallback): undefined => {
    pinnedConnection(pinning, options as ConnectionOptions, protocol, callback!);
    // Node's agent waits for the callback when this returns nothing.
    return undefined;
  };
  return agent;
}

/**
 * Resolves and checks the host, tells `beforeConnect`, then dials the checked address (TLS verifying
 * the certificate against the host name, not the address) within the connect timeout.
 */
function pinnedConnection(settings: PinnedConnectorSettings, options: ConnectionOptions, protocol: 'http:' | 'https:', callback: CreateConnectionCallback): void {
  const hostname = String(options.host ?? 'localhost').replace(/^\[|\]$/g, '');
  const port = Number(options.port) || (protocol === 'https:' ? 443 : 80);
  resolveCheckedAddress(hostname, originOf(protocol, hostname, port), settings)
    .then((address) => {
      settings.beforeConnect?.({ hostname, address, port, protocol });
      const socket =
        protocol === 'https:'
          ? tlsConnect({ ...options, host: address, port, ...(isIP(hostname) ? {} : { servername: options.servername || hostname }) })
          : netConnect({ ...(options as NetConnectOpts), host: address, port } as NetConnectOpts);
      armConnectTimeout(socket, protocol, settings.timeoutInMs);
      callback(null, socket);
    })
    .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), undefined as unknown as Duplex));
}

/** Destroys a socket that has not connected (and finished its TLS handshake) within the timeout. */
function armConnectTimeout(socket: Socket, protocol: 'http:' | 'https:', timeoutInMs: number): void {
  if (timeoutInMs <= 0) return;
  const timer = setTimeout(() => socket.destroy(Object.assign(new Error(`Connecting took longer than ${timeoutInMs} ms.`), { code: CONNECT_TIMEOUT_CODE })), timeoutInMs);
  const clear = (): void => clearTimeout(timer);
  socket.once(protocol === 'https:' ? 'secureConnect' : 'connect', clear);
  socket.once('close', clear);
}
