import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';

/** One scenario of `conformance/http/client.json`: what the server answers, and what a client must do with it. */
interface ClientScenario {
  id: string;
  description: string;
  spec_section: string;
  level: 'MUST' | 'SHOULD';
  serve: { status: number; headers: Record<string, string>; manifest?: unknown; text?: string; pad_to_bytes?: number; content_codings?: string[] };
  /** API answers by raw request path (query included), one per request in turn; the last repeats. */
  routes?: Record<string, Array<{ status: number; headers: Record<string, string>; body_json: unknown }>>;
  /** A tool call made after discovery. */
  call?: { tool: string; arguments: Record<string, unknown> };
  /** What every manifest request after the first gets (a changed manifest); `serve` otherwise. */
  serve_next?: ClientScenario['serve'];
  /** Tool calls made in order after discovery. */
  calls?: Array<{ tool: string; arguments: Record<string, unknown> }>;
  expect: {
    outcome: 'accept' | 'refuse';
    aicap_error_code?: string;
    no_request_to?: string;
    no_request_header?: string;
    call_ok?: boolean;
    api_requests?: string[];
    min_gap_ms?: number;
    /** Manifest requests made in all. */
    manifest_requests?: number;
    /** The reference client's error code of each of `calls` (`null` for a success); informative for other clients. */
    call_error_codes?: Array<string | null>;
  };
}

const scenarios = (JSON.parse(readFileSync(new URL('../../conformance/http/client.json', import.meta.url), 'utf8')) as { scenarios: ClientScenario[] }).scenarios;
const WELL_KNOWN = '/.well-known/ai-capabilities';

/** The bytes the scenario serves, with `${origin}` filled and any padding and codings applied. */
function bodyOf(serve: ClientScenario['serve'], origin: string): Buffer {
  // `pad_to_bytes`: an `x-padding` member makes the document exactly that many bytes long.
  let text = (serve.text ?? JSON.stringify(serve.manifest)).replaceAll('${origin}', origin);
  if (serve.pad_to_bytes !== undefined) text = `${text.slice(0, -1)},"x-padding":"${'p'.repeat(Math.max(0, serve.pad_to_bytes - Buffer.byteLength(text) - 15))}"}`;
  let bytes = Buffer.from(text, 'utf8');
  for (const coding of serve.content_codings ?? []) {
    if (coding !== 'gzip') throw new Error(`the runner codes gzip only, not ${coding}`);
    bytes = gzipSync(bytes);
  }
  return bytes;
}

function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (let node = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; node && depth < 5; node = node.cause as typeof node, depth++)
    if (typeof node.code === 'string') codes.push(node.code);
  return codes;
}

let server: ClientTestServer;
let client: Client | undefined;
beforeAll(async () => {
  server = await startClientTestServer();
});
afterEach(async () => {
  await client?.close();
  client = undefined;
});
afterAll(async () => {
  await server.close();
});

describe('the client scenarios of the conformance kit, against aicap/client', () => {
  it.each(scenarios.map((scenario) => [scenario.id, scenario] as const))('%s', async (_id, scenario) => {
    const body = bodyOf(scenario.serve, server.origin);
    const headers = { ...scenario.serve.headers, ...(scenario.serve.content_codings ? { 'content-encoding': scenario.serve.content_codings.join(', ') } : {}) };
    server.routes.clear();
    server.requests.length = 0;
    const next = scenario.serve_next ?? scenario.serve;
    const nextBody = bodyOf(next, server.origin);
    let manifestRequests = 0;
    server.routes.set(WELL_KNOWN, (_request, response) => {
      const answer = manifestRequests++ === 0 ? { status: scenario.serve.status, headers, body } : { status: next.status, headers: next.headers, body: nextBody };
      response.writeHead(answer.status, answer.headers).end(answer.body);
    });
    const apiRequests: Array<{ path: string; atInMs: number }> = [];
    for (const [path, answers] of Object.entries(scenario.routes ?? {})) {
      // The test server routes by decoded-free pathname; the scenario's raw path is checked below.
      server.routes.set(path.split('?')[0]!, (request, response) => {
        apiRequests.push({ path: request.url ?? '', atInMs: performance.now() });
        const answer = answers[Math.min(apiRequests.length - 1, answers.length - 1)]!;
        response.writeHead(answer.status, answer.headers).end(JSON.stringify(answer.body_json));
      });
    }
    client = createClient({ cache: false, retry: { limit: 5 } });
    const outcome = await client.discover(server.origin).then(
      () => ({ refused: false, codes: [] as string[] }),
      (error: unknown) => ({ refused: true, codes: codesOf(error) }),
    );
    if (scenario.call) {
      const envelope = await client.call(scenario.call.tool, scenario.call.arguments);
      if (scenario.expect.call_ok !== undefined) expect(envelope.ok, JSON.stringify(envelope).slice(0, 300)).toBe(scenario.expect.call_ok);
    }
    const codes: Array<string | null> = [];
    for (const call of scenario.calls ?? []) codes.push((await client.call(call.tool, call.arguments)).error?.code ?? null);
    if (scenario.expect.call_error_codes) expect(codes).toEqual(scenario.expect.call_error_codes);
    if (scenario.expect.manifest_requests !== undefined) expect(manifestRequests).toBe(scenario.expect.manifest_requests);
    if (scenario.expect.api_requests) expect(apiRequests.map((request) => request.path)).toEqual(scenario.expect.api_requests);
    if (scenario.expect.min_gap_ms !== undefined) {
      const gaps = apiRequests.slice(1).map((request, index) => request.atInMs - apiRequests[index]!.atInMs);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(scenario.expect.min_gap_ms);
    }
    expect(outcome.refused, `${scenario.description}: ${outcome.codes.join(', ')}`).toBe(scenario.expect.outcome === 'refuse');
    if (scenario.expect.aicap_error_code) expect(outcome.codes).toContain(scenario.expect.aicap_error_code);
    if (scenario.expect.no_request_to) expect(server.hits(scenario.expect.no_request_to)).toEqual([]);
    if (scenario.expect.no_request_header) expect(server.requests.map((request) => request.headers[scenario.expect.no_request_header!])).toEqual(server.requests.map(() => undefined));
  });
});
