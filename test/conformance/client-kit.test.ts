import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type CallEnvelope, type Client, type FetchFunction } from '../../src/client/index.js';
import { digestManifest } from '../../src/manifest/digest-manifest.js';
import { exportTools } from '../../src/tools/index.js';
import { startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';

/** By header name: `absent` on every request, or `same_in_all` (present, with one value on every request). */
type HeaderRules = Record<string, { absent?: true; same_in_all?: true }>;

/** By header name, over one request: `present`, `absent`, or `equals` a value. */
type RequestHeaderRules = Record<string, { present?: true; absent?: true; equals?: string }>;

/** One scenario of `conformance/http/client.json`: what the server answers, and what a client must do with it. */
interface ClientScenario {
  id: string;
  description: string;
  spec_section: string;
  level: 'MUST' | 'SHOULD';
  serve: { status: number; headers: Record<string, string>; manifest?: unknown; text?: string; pad_to_bytes?: number; content_codings?: string[] };
  /** API answers by raw request path (query included), one per request in turn; the last repeats. */
  routes?: Record<string, Array<{ status: number; headers: Record<string, string>; body_json?: unknown; body_text?: string; drop_after_bytes?: number; hold_open?: true }>>;
  /** A tool call made after discovery. */
  call?: { tool: string; arguments: Record<string, unknown> };
  /** What every manifest request after the first gets (a changed manifest); `serve` otherwise. */
  serve_next?: ClientScenario['serve'];
  /** Tool calls (or, with `prompt`, prompt renderings) made in order after discovery. */
  calls?: Array<{
    tool?: string;
    prompt?: string;
    job?: true;
    arguments: Record<string, unknown>;
    options?: { all_pages?: boolean };
    /** The tool of the scenario's origin or of the other origin, when both declare its id. */
    service?: 'origin' | 'other';
    /** Fills the arguments the call does not give from the follow-ups of that earlier call's result (section 8.7). */
    from?: number;
  }>;
  /** Before the calls, wait until `path` on the scenario's origin has been requested `requests` times (a followed change feed). */
  wait_for?: { path: string; requests: number; timeout_ms: number };
  /** What the user gives the client for the scenario's origin: `token` is a bearer token. */
  client?: {
    credentials?: { token?: string };
    /** Keep a manifest cache (RFC 9111) across the scenario's discoveries; the runner's client has none otherwise. */
    cache?: true;
    /** Discover the origin again after the first discovery, once per entry, with these credentials. */
    rediscover_as?: Array<{ token?: string }>;
    /** How long the user lets the client follow a job, in milliseconds (section 8.4's bound). */
    job_follow_limit_ms?: number;
    /** Tools a human approves after the first discovery: the client pins their digests (section 6). */
    approve?: string[];
    /** Discover `${other_origin}` too, after the scenario's origin: its manifest is `other_routes['/.well-known/ai-capabilities']`. */
    discover_other?: true;
  };
  /** Answers of a second server on another origin (`${other_origin}`), by raw request path like `routes`. */
  other_routes?: ClientScenario['routes'];
  expect: {
    outcome: 'accept' | 'refuse' | 'refuse_entry';
    /** With `refuse_entry`: the tool, resource or prompt that must never be offered or used. */
    entry?: string;
    aicap_error_code?: string;
    no_request_to?: string;
    no_request_header?: string;
    call_ok?: boolean;
    api_requests?: string[];
    min_gap_ms?: number;
    /** Manifest requests made in all. */
    manifest_requests?: number;
    /** By manifest request (in order), rules over its headers. */
    manifest_request_headers?: RequestHeaderRules[];
    /** The reference client's error code of each of `calls` (`null` for a success); informative for other clients. */
    call_error_codes?: Array<string | null>;
    /** What each of `calls` reported, by call: see {@link CallReport}. */
    call_reports?: Array<(Partial<CallReport> & ModelTextRules) | null>;
    /** Every call of `calls` has ended (successfully or not) within this many milliseconds of the first one's start. */
    calls_within_ms?: number;
    /** Raw paths the other origin received, in order. */
    other_requests?: string[];
    /** By header name, over every request to `routes`: `absent`, or `same_in_all` (present, one value). */
    api_headers?: HeaderRules;
    /** The same, over every request to `other_routes`. */
    other_headers?: HeaderRules;
  };
}

const scenarios = (JSON.parse(readFileSync(new URL('../../conformance/http/client.json', import.meta.url), 'utf8')) as { scenarios: ClientScenario[] }).scenarios;
const WELL_KNOWN = '/.well-known/ai-capabilities';

/** Values of the scenario's placeholders: `origin`, `other_origin`, and `digest`, `next_digest` once the manifests are known. */
type Placeholders = Record<string, string>;

/** The bytes the scenario serves, with its placeholders filled and any padding and codings applied. */
function bodyOf(serve: ClientScenario['serve'], values: Placeholders): Buffer {
  // `pad_to_bytes`: an `x-padding` member makes the document exactly that many bytes long.
  let text = fill(serve.text ?? JSON.stringify(serve.manifest), values);
  if (serve.pad_to_bytes !== undefined) text = `${text.slice(0, -1)},"x-padding":"${'p'.repeat(Math.max(0, serve.pad_to_bytes - Buffer.byteLength(text) - 15))}"}`;
  let bytes = Buffer.from(text, 'utf8');
  for (const coding of serve.content_codings ?? []) {
    if (coding !== 'gzip') throw new Error(`the runner codes gzip only, not ${coding}`);
    bytes = gzipSync(bytes);
  }
  return bytes;
}

function fill(text: string, values: Placeholders): string {
  return text.replaceAll(/\$\{(\w+)\}/g, (placeholder, name: string) => values[name] ?? placeholder);
}

/** The section 6 digest of the manifest `serve` holds, placeholders filled (`${digest}`, `${next_digest}` in a change feed). */
function digestOf(serve: ClientScenario['serve'], values: Placeholders): string {
  try {
    return digestManifest(JSON.parse(fill(serve.text ?? JSON.stringify(serve.manifest), values)));
  } catch {
    return 'sha256-not-json';
  }
}

/** Serves `routes` (by pathname; the raw path is recorded) on one test server, recording each request. */
function serveRoutes(target: ClientTestServer, routes: ClientScenario['routes'], values: Placeholders, recorded: Array<{ path: string; atInMs: number; headers: Record<string, unknown> }>): void {
  for (const [path, answers] of Object.entries(routes ?? {})) {
    let served = 0;
    target.routes.set(path.split('?')[0]!, (request, response) => {
      recorded.push({ path: request.url ?? '', atInMs: performance.now(), headers: request.headers });
      const answer = answers[Math.min(served++, answers.length - 1)]!;
      const headers = Object.fromEntries(Object.entries(answer.headers).map(([name, value]) => [name, fill(value, values)]));
      const body = fill(answer.body_text ?? JSON.stringify(answer.body_json), values);
      if (answer.hold_open) {
        // A stream that stays open (a followed change feed): the body goes out, the connection is left to the client.
        response.writeHead(answer.status, headers).write(body);
        heldOpen.add(response);
        return;
      }
      if (answer.drop_after_bytes === undefined) {
        response.writeHead(answer.status, headers).end(body);
        return;
      }
      // A connection cut mid-answer: the headers and the first bytes go out, then the socket is destroyed.
      response.writeHead(answer.status, headers);
      response.write(Buffer.from(body).subarray(0, answer.drop_after_bytes), () => response.socket?.destroy());
    });
  }
}

function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (let node = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; node && depth < 5; node = node.cause as typeof node, depth++)
    if (typeof node.code === 'string') codes.push(node.code);
  return codes;
}

/** What a client reports about one call, in the kit's neutral terms. */
interface CallReport {
  /** The reference client's error code (`null` for a success); informative for other clients. */
  code: string | null;
  /** Whether the result is complete: false when a page says more exist but not how to reach them, or the walk stopped early. */
  complete: boolean;
  /** The tools offered as follow-ups of a success (section 8.7), in order. */
  follow_ups: string[];
  /** The delay the failure asked for (`Retry-After`), in seconds, or `null`. */
  retry_after_seconds: number | null;
  /** For a `job` call: the job's last known state, or `null` when it never started. */
  job_status?: string | null;
  /** For a successful tool call: the text the client hands its model for the result. */
  model_text?: string;
}

/** Over the text a client hands its model for a call's result: strings it must hold, and strings it must not. */
interface ModelTextRules {
  model_text_contains?: string[];
  model_text_lacks?: string[];
}

/** The name the reference client knows a call's tool by: `namespace__id` of the service on the origin the call names, or its plain id. */
function toolNameOf(target: Client, call: NonNullable<ClientScenario['calls']>[number], origins: { origin: string; other: string }): string {
  if (call.service === undefined) return call.tool!;
  const origin = call.service === 'other' ? origins.other : origins.origin;
  const service = target.services().find((candidate) => candidate.origin === origin);
  if (!service) throw new Error(`the scenario calls a tool of ${origin}, which was not discovered`);
  return `${service.namespace}__${call.tool!}`;
}

/** Makes one of `calls` with the reference client and reports it; `envelopes` holds the results of the calls before it, for `from`. */
async function reportCall(
  target: Client,
  call: NonNullable<ClientScenario['calls']>[number],
  envelopes: ReadonlyArray<CallEnvelope | undefined>,
  origins: { origin: string; other: string },
): Promise<{ report: CallReport; envelope?: CallEnvelope }> {
  if (call.prompt !== undefined || call.job) return { report: await reportOther(target, call, toolNameOf(target, call, origins)) };
  const from = call.from === undefined ? undefined : envelopes[call.from];
  if (call.from !== undefined && !from) throw new Error(`call ${call.from} named by \`from\` made no envelope`);
  const envelope = await target
    .call(toolNameOf(target, call, origins), call.arguments, { ...(call.options?.all_pages ? { allPages: true } : {}), ...(from ? { from } : {}) })
    .catch((error: unknown) => {
      // A call the client refuses before sending (a link it cannot fill) throws rather than returning an envelope.
      const report: CallReport = { code: codesOf(error)[0] ?? 'THREW', complete: false, follow_ups: [], retry_after_seconds: null };
      return report;
    });
  if (!('ok' in envelope)) return { report: envelope };
  if (!envelope.ok)
    return {
      envelope,
      report: { code: envelope.error.code, complete: false, follow_ups: [], retry_after_seconds: envelope.error.retryAfterInMs === null ? null : envelope.error.retryAfterInMs / 1000 },
    };
  return {
    envelope,
    report: { code: null, complete: envelope.page?.complete ?? true, follow_ups: (envelope.next ?? []).map((followUp) => followUp.tool), retry_after_seconds: null, model_text: envelope.text },
  };
}

/** A prompt rendering or a job, reported like a call. */
async function reportOther(target: Client, call: NonNullable<ClientScenario['calls']>[number], name: string): Promise<CallReport> {
  if (call.prompt !== undefined)
    return target.getPrompt(call.prompt, call.arguments).then(
      () => ({ code: null, complete: true, follow_ups: [], retry_after_seconds: null }),
      (error: unknown) => ({ code: codesOf(error)[0] ?? 'THREW', complete: false, follow_ups: [], retry_after_seconds: null }),
    );
  return reportJob(target, name, call.arguments);
}

function expectHeaders(requests: ReadonlyArray<{ headers: Record<string, unknown> }>, rules: HeaderRules | undefined, what: string): void {
  for (const [name, rule] of Object.entries(rules ?? {})) {
    const values = requests.map((request) => request.headers[name]);
    if (rule.absent) expect(values, `${name} sent in ${what}`).toEqual(values.map(() => undefined));
    if (rule.same_in_all) {
      expect(values[0], `${name} missing from the first of the ${what}`).toBeTypeOf('string');
      expect(new Set(values).size, `${name} differs between ${what}: ${values.join(', ')}`).toBe(1);
    }
  }
}

/** Makes `calls` in order, each able to fill its arguments from an earlier one's result (`from`). */
async function makeCalls(target: Client, calls: NonNullable<ClientScenario['calls']>): Promise<CallReport[]> {
  const reports: CallReport[] = [];
  const envelopes: Array<CallEnvelope | undefined> = [];
  for (const call of calls) {
    const { report, envelope } = await reportCall(target, call, envelopes, { origin: server.origin, other: other.origin });
    reports.push(report);
    envelopes.push(envelope);
  }
  return reports;
}

/** `work`, failing when it has not ended after `limitInMs` (`expect.calls_within_ms`). */
async function bounded<T>(work: Promise<T>, limitInMs: number | undefined): Promise<T> {
  if (limitInMs === undefined) return work;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`the calls had not ended after ${limitInMs} ms`)), limitInMs);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

function expectReport(report: CallReport | undefined, expected: Partial<CallReport> & ModelTextRules, what: string): void {
  const { model_text_contains: contains = [], model_text_lacks: lacks = [], ...rest } = expected;
  expect(report, what).toMatchObject(rest);
  for (const text of contains) expect(report?.model_text, `${what}: the model text`).toContain(text);
  for (const text of lacks) expect(report?.model_text, `${what}: the model text`).not.toContain(text);
}

/** Waits (bounded by `timeout_ms`) until `path` on the scenario's origin has been requested `requests` times. */
async function waitForRequests(wait: NonNullable<ClientScenario['wait_for']>): Promise<void> {
  const deadline = performance.now() + wait.timeout_ms;
  while (server.requests.filter((request) => request.path === wait.path).length < wait.requests) {
    if (performance.now() > deadline) throw new Error(`timed out after ${wait.timeout_ms} ms waiting for request ${wait.requests} to ${wait.path}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function expectRequestHeaders(headers: Record<string, unknown> | undefined, rules: RequestHeaderRules, what: string): void {
  expect(headers, `${what} was never made`).toBeDefined();
  for (const [name, rule] of Object.entries(rules)) {
    if (rule.present) expect(headers![name], `${name} missing from ${what}`).toBeTypeOf('string');
    if (rule.absent) expect(headers![name], `${name} sent in ${what}`).toBeUndefined();
    if (rule.equals !== undefined) expect(headers![name], `${name} of ${what}`).toBe(rule.equals);
  }
}

/** Starts a job and follows it to its end (or its failure to start) with the reference client. */
async function reportJob(target: Client, toolId: string, args: Record<string, unknown>): Promise<CallReport> {
  const report = { complete: true, follow_ups: [], retry_after_seconds: null };
  let job;
  try {
    job = await target.startJob(toolId, args);
  } catch (error) {
    return { ...report, code: codesOf(error)[0] ?? 'THREW', job_status: null };
  }
  try {
    const state = await job.finished();
    const envelope = await job.result();
    return { ...report, code: envelope.ok ? null : envelope.error.code, job_status: state.status ?? null };
  } catch (error) {
    return { ...report, code: codesOf(error)[0] ?? 'THREW', job_status: job.state().status ?? null };
  }
}

let server: ClientTestServer;
let other: ClientTestServer;
let client: Client | undefined;
/** Answers left open (`hold_open`), ended when the scenario's client is closed. */
const heldOpen = new Set<ServerResponse>();
beforeAll(async () => {
  [server, other] = await Promise.all([startClientTestServer(), startClientTestServer()]);
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  for (const response of heldOpen) response.destroy();
  heldOpen.clear();
});
afterAll(async () => {
  await Promise.all([server.close(), other.close()]);
});

/**
 * Runs one scenario against aicap/client; `transport` replaces the client's transport (under its
 * guarded fetch) to break the client on purpose. Throws the first expectation it misses.
 */
async function runScenario(scenario: ClientScenario, transport?: FetchFunction): Promise<void> {
  {
    const values: Placeholders = { origin: server.origin, other_origin: other.origin };
    values['digest'] = digestOf(scenario.serve, values);
    values['next_digest'] = digestOf(scenario.serve_next ?? scenario.serve, values);
    const body = bodyOf(scenario.serve, values);
    const headers = {
      ...Object.fromEntries(Object.entries(scenario.serve.headers).map(([name, value]) => [name, fill(value, values)])),
      ...(scenario.serve.content_codings ? { 'content-encoding': scenario.serve.content_codings.join(', ') } : {}),
    };
    for (const target of [server, other]) {
      target.routes.clear();
      target.requests.length = 0;
    }
    const next = scenario.serve_next ?? scenario.serve;
    const nextBody = bodyOf(next, values);
    let manifestRequests = 0;
    const manifestHeaders: Array<Record<string, unknown>> = [];
    server.routes.set(WELL_KNOWN, (request, response) => {
      manifestHeaders.push(request.headers);
      const answer = manifestRequests++ === 0 ? { status: scenario.serve.status, headers, body } : { status: next.status, headers: next.headers, body: nextBody };
      response.writeHead(answer.status, answer.headers).end(answer.body);
    });
    const apiRequests: Array<{ path: string; atInMs: number; headers: Record<string, unknown> }> = [];
    const otherRequests: typeof apiRequests = [];
    serveRoutes(server, scenario.routes, values, apiRequests);
    serveRoutes(other, scenario.other_routes, values, otherRequests);
    // A second origin on loopback is reachable only when listed: the scenario is about what the client sends it.
    const network = { ...(scenario.other_routes ? { allow: ['127.0.0.1'] } : {}), ...(transport ? { fetch: transport } : {}) };
    const jobs = scenario.client?.job_follow_limit_ms === undefined ? {} : { jobs: { follow: { maxDurationInMs: scenario.client.job_follow_limit_ms } } };
    client = createClient({ ...(scenario.client?.cache ? {} : { cache: false }), retry: { limit: 5 }, network, ...jobs });
    const credentials = scenario.client?.credentials;
    const outcome = await client.discover(server.origin, credentials ? { credentials } : {}).then(
      () => ({ refused: false, codes: [] as string[] }),
      (error: unknown) => ({ refused: true, codes: codesOf(error) }),
    );
    // A client may refuse the whole document or hold the entry back; held back, it is neither offered nor called.
    if (scenario.expect.outcome === 'refuse_entry' && !outcome.refused) {
      const entry = scenario.expect.entry!;
      const tools = client.catalog().tools;
      const name = tools.find((tool) => tool.id === entry)?.name;
      expect(exportTools(tools, 'openai').tools.map((tool) => tool.function.name)).not.toContain(name);
      const envelope = await client.call(entry, {});
      expect(envelope.ok, `a call of ${entry}`).toBe(false);
      if (!envelope.ok) Object.assign(outcome, { refused: true, codes: [envelope.error.code] });
    }
    for (const tool of scenario.client?.approve ?? []) await client.approve(tool);
    for (const again of scenario.client?.rediscover_as ?? []) await client.discover(server.origin, { credentials: again });
    if (scenario.client?.discover_other) await client.discover(other.origin);
    if (scenario.wait_for) await waitForRequests(scenario.wait_for);
    if (scenario.call) {
      const envelope = await client.call(scenario.call.tool, scenario.call.arguments);
      if (scenario.expect.call_ok !== undefined) expect(envelope.ok, JSON.stringify(envelope).slice(0, 300)).toBe(scenario.expect.call_ok);
    }
    const reports = await bounded(makeCalls(client, scenario.calls ?? []), scenario.expect.calls_within_ms);
    if (scenario.expect.call_error_codes) expect(reports.map((report) => report.code)).toEqual(scenario.expect.call_error_codes);
    scenario.expect.call_reports?.forEach((expected, index) => expected && expectReport(reports[index], expected, `call ${index}`));
    if (scenario.expect.manifest_requests !== undefined) expect(manifestRequests).toBe(scenario.expect.manifest_requests);
    scenario.expect.manifest_request_headers?.forEach((rules, index) => expectRequestHeaders(manifestHeaders[index], rules, `manifest request ${index}`));
    if (scenario.expect.api_requests) expect(apiRequests.map((request) => request.path)).toEqual(scenario.expect.api_requests);
    if (scenario.expect.min_gap_ms !== undefined) {
      const gaps = apiRequests.slice(1).map((request, index) => request.atInMs - apiRequests[index]!.atInMs);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(scenario.expect.min_gap_ms);
    }
    expect(outcome.refused, `${scenario.description}: ${outcome.codes.join(', ')}`).toBe(scenario.expect.outcome !== 'accept');
    if (scenario.expect.aicap_error_code) expect(outcome.codes).toContain(scenario.expect.aicap_error_code);
    if (scenario.expect.no_request_to) expect(server.hits(scenario.expect.no_request_to)).toEqual([]);
    if (scenario.expect.other_requests) expect(otherRequests.map((request) => request.path)).toEqual(scenario.expect.other_requests);
    expectHeaders(apiRequests, scenario.expect.api_headers, 'API requests');
    expectHeaders(otherRequests, scenario.expect.other_headers, 'requests to the other origin');
    if (scenario.expect.no_request_header) expect(server.requests.map((request) => request.headers[scenario.expect.no_request_header!])).toEqual(server.requests.map(() => undefined));
  }
}

describe('the client scenarios of the conformance kit, against aicap/client', () => {
  it.each(scenarios.map((scenario) => [scenario.id, scenario] as const))('%s', async (_id, scenario) => {
    await runScenario(scenario);
  });
});

/** A transport that lets `edit` change every request's headers, and follows redirects itself with the same headers (as a careless client would). */
function tamperingTransport(edit: (headers: Headers, url: string) => void): FetchFunction {
  return async (input, init) => {
    const request = new Request(input, init);
    const headers = new Headers(request.headers);
    let url = request.url;
    for (let hop = 0; hop < 5; hop++) {
      edit(headers, url);
      const response = await fetch(url, { method: request.method, headers, redirect: 'manual', signal: request.signal });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status > 399 || !location) return response;
      await response.body?.cancel();
      url = new URL(location, url).href;
    }
    throw new Error('too many redirects');
  };
}

describe('the client scenarios catch a client broken on purpose', () => {
  const byId = (id: string): ClientScenario => scenarios.find((scenario) => scenario.id === id)!;

  // Following the redirect itself, the leaky client also takes the other origin's manifest for its own origin's: either way the scenario fails it.
  it.each([
    ['client.discovery.redirect_keeps_credentials', /authorization sent in requests to the other origin|credentials given for the origin/],
    ['client.call.redirect_other_origin', /authorization sent in requests to the other origin/],
  ] as const)('%s fails a client that sends its token to every origin', async (id, failure) => {
    const leaky = tamperingTransport((headers) => headers.set('authorization', 'Bearer conformance-secret'));
    await expect(runScenario(byId(id), leaky)).rejects.toThrow(failure);
  });

  it('client.cache.per_principal is not vacuous: the same principal discovering again is served from the cache', async () => {
    const scenario = structuredClone(byId('client.cache.per_principal'));
    scenario.client = { ...scenario.client, rediscover_as: [{ token: 'principal-a' }] };
    await expect(runScenario(scenario)).rejects.toThrow(/expected 1 to be 2/);
  });

  it('client.call.idempotency_key_reused fails a client that makes a new key for each attempt', async () => {
    let attempt = 0;
    const forgetful = tamperingTransport((headers) => headers.has('idempotency-key') && headers.set('idempotency-key', `attempt-${attempt++}`));
    await expect(runScenario(byId('client.call.idempotency_key_reused'), forgetful)).rejects.toThrow(/idempotency-key differs/);
  });
});

/** A transport whose event-stream and `application/json` bodies pass through `edit`, chunk by chunk, and whose other answers pass through `editHeaders`: a client that reads what it receives wrongly. */
function rewritingTransport(edit: (text: string) => string, editHeaders: (headers: Headers) => void = () => undefined): FetchFunction {
  return async (input, init) => {
    const response = await fetch(input, init);
    const headers = new Headers(response.headers);
    editHeaders(headers);
    if (!response.body || !/^(text\/event-stream|application\/json)\b/.test(headers.get('content-type') ?? '')) return new Response(response.body, { status: response.status, headers });
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({ transform: (chunk, controller) => controller.enqueue(encoder.encode(edit(decoder.decode(chunk, { stream: true })))) }),
    );
    return new Response(body, { status: response.status, headers });
  };
}

describe('the change feed scenarios catch a client broken on purpose', () => {
  const byId = (id: string): ClientScenario => scenarios.find((scenario) => scenario.id === id)!;
  const otherDigest = `sha256-${'A'.repeat(43)}`;

  it('client.feed.comments_ignored fails a client that takes a heartbeat for a change', async () => {
    const eager = rewritingTransport((text) => text.replaceAll(': heartbeat\n', `event: change\ndata: {"digest":"${otherDigest}"}\n`));
    await expect(runScenario(byId('client.feed.comments_ignored'), eager)).rejects.toThrow(/expected \d+ to be 2/);
  });

  it('client.feed.comments_ignored fails a client whose comment line ends the event', async () => {
    const splitting = rewritingTransport((text) => text.replaceAll(/^:.*$/gm, ''));
    await expect(runScenario(byId('client.feed.comments_ignored'), splitting)).rejects.toThrow(/expected 1 to be 2/);
  });

  it('client.feed.revalidates_on_new_digest fails a client that revalidates on the digest it holds', async () => {
    // Every event then carries a digest the client does not hold.
    const unequal = rewritingTransport((text) => text.replaceAll(/"digest":"[^"]+"/g, `"digest":"${otherDigest}"`));
    await expect(runScenario(byId('client.feed.revalidates_on_new_digest'), unequal)).rejects.toThrow(/expected \d+ to be 2/);
  });

  it('client.feed.revalidates_on_new_digest fails a client whose revalidation is not conditional', async () => {
    const unconditional = tamperingTransport((headers) => headers.delete('if-none-match'));
    await expect(runScenario(byId('client.feed.revalidates_on_new_digest'), unconditional)).rejects.toThrow(/if-none-match of manifest request 1/);
  });

  it('client.feed.retry_after_waited fails a client that does not wait for Retry-After', async () => {
    const impatient = rewritingTransport(
      (text) => text,
      (headers) => headers.delete('retry-after'),
    );
    await expect(runScenario(byId('client.feed.retry_after_waited'), impatient)).rejects.toThrow(/expected [\d.]+ to be greater than or equal to 1000/);
  });
});

describe('the two-service scenarios catch a client broken on purpose', () => {
  const byId = (id: string): ClientScenario => scenarios.find((scenario) => scenario.id === id)!;

  it('client.job.tied_to_service fails a client that follows a job by its id on the first service that has it', async () => {
    // Both services hand out job-1: such a client polls and reads the other service's job on the scenario's origin.
    const confused: FetchFunction = (input, init) => {
      const url = new URL(new Request(input).url);
      if (url.origin === other.origin && url.pathname.startsWith('/v1/jobs/')) return fetch(`${server.origin}${url.pathname}`, init);
      return fetch(input, init);
    };
    await expect(runScenario(byId('client.job.tied_to_service'), confused)).rejects.toThrow(/deeply equal/);
  });

  it('client.follow_up.same_origin_only is not vacuous: the same result fills the first origin’s own tool', async () => {
    const scenario = structuredClone(byId('client.follow_up.same_origin_only'));
    scenario.calls![1] = { ...scenario.calls![1]!, tool: 'get_account', service: 'origin' };
    await expect(runScenario(scenario)).rejects.toThrow(/expected \[ null, null, null \] to deeply equal/);
  });
});

describe('the job bound scenario catches a client that follows for ever', () => {
  it('client.job.follow_bounded fails a client with no bound on following a job', async () => {
    const scenario = structuredClone(scenarios.find((candidate) => candidate.id === 'client.job.follow_bounded')!);
    // The reference client's "no limit"; a shorter wait keeps the demonstration quick.
    scenario.client = { ...scenario.client, job_follow_limit_ms: 0 };
    scenario.expect.calls_within_ms = 2500;
    await expect(runScenario(scenario)).rejects.toThrow(/the calls had not ended after 2500 ms/);
  });
});

describe('the redaction scenario catches a client that rewrites identifiers', () => {
  const byId = (id: string): ClientScenario => scenarios.find((scenario) => scenario.id === id)!;

  it('client.policy.redaction_keeps_identifiers fails a client that replaces the value wherever it occurs', async () => {
    // What such a client would hand its model: every occurrence replaced, inside the transaction ids too.
    const everywhere = rewritingTransport((text) => text.replaceAll('12345', '[REDACTED]'));
    await expect(runScenario(byId('client.policy.redaction_keeps_identifiers'), everywhere)).rejects.toThrow(/the model text.*to contain 'txn_12345_0005'/);
  });

  it('client.policy.redaction_keeps_identifiers fails a client that does not redact', async () => {
    const scenario = structuredClone(byId('client.policy.redaction_keeps_identifiers'));
    delete (scenario.serve.manifest as { policy?: unknown }).policy;
    await expect(runScenario(scenario)).rejects.toThrow(/the model text.*not to contain '"12345"'/);
  });
});

describe('the pin scenario is not vacuous', () => {
  const byId = (id: string): ClientScenario => scenarios.find((scenario) => scenario.id === id)!;

  it('client.trust.pinned_tool_changed fails a client that keeps no pins: it calls the changed tool', async () => {
    const scenario = structuredClone(byId('client.trust.pinned_tool_changed'));
    scenario.client = { ...scenario.client, approve: [] };
    await expect(runScenario(scenario)).rejects.toThrow(/expected \[ null, null \] to deeply equal \[ 'TOOL_DISABLED', null \]/);
  });
});
