/**
 * Runs one scenario of `conformance/http/producer.json` against a live producer, the way the README
 * of `conformance/` describes: each step sends one request, optionally reads Server-Sent Events,
 * captures values for later steps and checks its expectations. A step whose `when` does not hold
 * makes the scenario not applicable (`skip`). Bounded in count and time everywhere.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Manifest, Tool } from '../../src/manifest/manifest-v0.js';
import { WELL_KNOWN_PATH } from '../../src/manifest/manifest-v0.js';
import { parseManifest } from '../../src/manifest/parse-manifest.js';
import { findSecretValues } from '../../src/manifest/find-secret-values.js';
import { canonicalJson, digestManifest } from '../../src/manifest/digest-manifest.js';
import { mediaTypeOf } from '../../src/internal/parse-media-type.js';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

// The job bodies are judged by the published schema, as another implementation would judge them.
const jobSchema = JSON.parse(readFileSync(new URL('../../schema/job-wire-0.2.schema.json', import.meta.url), 'utf8')) as { $id: string };
const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats.default(ajv);
ajv.addSchema(jobSchema);

function checkSchema(value: unknown, definition: string, where: string): void {
  const validate = ajv.getSchema(`${jobSchema.$id}#/$defs/${definition}`);
  if (!validate) throw new Error(`no $defs/${definition} in the job schema`);
  if (!validate(value)) throw new Expectation(`${where}: not a valid ${definition} (${ajv.errorsText(validate.errors)}): ${JSON.stringify(value).slice(0, 200)}`);
}

type Matcher = { [name: string]: unknown };

interface Step {
  request: { method: string; target: string; as?: 'other' | 'anonymous'; headers?: Record<string, string>; body?: unknown; idempotency_key?: string };
  when?: { header_present?: string; header_has_token?: Record<string, string> };
  read_events?: { until: string[]; max_events: number; timeout_ms: number };
  repeat_until?: { pointer: string; in: unknown[]; max_attempts: number; interval_ms: number };
  /** `json` captures a string or number as it is, an object or array as its JSON text. */
  capture?: Record<string, { header?: string; json?: string; event_id?: number; unquote?: boolean }>;
  expect: { status?: number | number[]; headers?: Record<string, Matcher>; body?: Matcher; events?: Matcher };
}

/** One scenario as committed. */
export interface ProducerScenario {
  id: string;
  description: string;
  spec_section: string;
  level: 'MUST' | 'SHOULD';
  safe: boolean;
  requires?: 'job' | 'change_feed' | 'keyed_call';
  steps: Step[];
}

/** What the runner needs to know about the producer. */
export interface ProducerTarget {
  origin: string;
  /** For scenarios that `require` a job: the tool to start, its arguments and the headers every job request carries. */
  job?: { toolId: string; arguments: Record<string, unknown>; headers: Record<string, string>; otherHeaders: Record<string, string> };
  /** For scenarios that `require` a keyed call: a tool with `idempotency_key_header` that is safe to call in a test set-up, its arguments and headers. */
  keyedCall?: { toolId: string; arguments: Record<string, unknown>; headers: Record<string, string> };
}

/** A scenario's outcome: `pass`, `fail` with the first broken expectation, or `skip` with why. */
export interface ScenarioOutcome {
  outcome: 'pass' | 'fail' | 'skip';
  message: string;
}

interface Context {
  target: ProducerTarget;
  manifest?: Manifest | undefined;
  variables: Record<string, string>;
}

class Expectation extends Error {}
class NotApplicable extends Error {}

/** Runs `scenario` against `target`. */
export async function runProducerScenario(scenario: ProducerScenario, target: ProducerTarget): Promise<ScenarioOutcome> {
  if (scenario.requires === 'job' && !target.job) return { outcome: 'skip', message: 'needs a job tool to start' };
  if (scenario.requires === 'keyed_call' && !target.keyedCall) return { outcome: 'skip', message: 'needs a tool with an idempotency key header that is safe to call' };
  const context: Context = { target, variables: {} };
  try {
    for (const [index, step] of scenario.steps.entries()) await runStep(step, context, `step ${index + 1}`);
    return { outcome: 'pass', message: scenario.description };
  } catch (error) {
    if (error instanceof NotApplicable) return { outcome: 'skip', message: error.message };
    if (error instanceof Expectation) return { outcome: 'fail', message: error.message };
    throw error;
  }
}

function fill(text: string, variables: Record<string, string>): string {
  return text.replace(/\$\{([a-z_]+)\}/g, (whole, name: string) => variables[name] ?? whole);
}

export function fillValue(value: unknown, variables: Record<string, string>): unknown {
  if (typeof value === 'string') return fill(value, variables);
  if (Array.isArray(value)) return value.map((item) => fillValue(item, variables));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillValue(item, variables)]));
  return value;
}

async function loadManifest(context: Context): Promise<Manifest | undefined> {
  if (!context.manifest) {
    const response = await fetch(`${context.target.origin}${WELL_KNOWN_PATH}`);
    context.manifest = parseManifest(new Uint8Array(await response.arrayBuffer())).manifest;
  }
  return context.manifest;
}

async function jobTool(context: Context): Promise<Tool> {
  await loadManifest(context);
  const tool = context.manifest?.tools.find((candidate) => candidate.id === context.target.job?.toolId);
  if (!tool?.temporal_behavior) throw new NotApplicable(`the manifest has no job tool ${context.target.job?.toolId}`);
  return tool;
}

async function resolveTarget(step: Step, context: Context): Promise<{ url: string; method: string; headers: Record<string, string>; body?: string }> {
  const headers = Object.fromEntries(Object.entries(step.request.headers ?? {}).map(([name, value]) => [name, fill(value, context.variables)]));
  const body = step.request.body === undefined ? undefined : JSON.stringify(fillValue(step.request.body, context.variables));
  if (step.request.target === 'manifest') return { url: `${context.target.origin}${WELL_KNOWN_PATH}`, method: step.request.method, headers, ...(body === undefined ? {} : { body }) };
  if (step.request.target === 'change_feed') {
    const feed = (await loadManifest(context))?.change_feed;
    if (!feed) throw new NotApplicable('the manifest declares no change_feed');
    return { url: `${context.target.origin}${feed.path}`, method: step.request.method, headers };
  }
  if (step.request.target === 'keyed_call') return keyedCallTarget(step, context, headers);
  const tool = await jobTool(context);
  const base = context.manifest!.service.base_url.replace(/\/+$/, '');
  // `anonymous`: no credentials at all, and no agent id either.
  const principalHeaders = step.request.as === 'anonymous' ? {} : step.request.as === 'other' ? context.target.job!.otherHeaders : context.target.job!.headers;
  const jobHeaders = { ...principalHeaders, ...headers };
  const withArguments = (path: string): string =>
    path.replace(/\{([^{}]+)\}/g, (_whole, name: string) => encodeURIComponent(name === 'job_id' ? (context.variables['job_id'] ?? '') : String(context.target.job!.arguments[name] ?? '')));
  if (step.request.target === 'job.start')
    return { url: `${base}${withArguments(tool.path)}`, method: tool.method, headers: { 'content-type': 'application/json', ...jobHeaders }, body: JSON.stringify(context.target.job!.arguments) };
  const behavior = tool.temporal_behavior!;
  const paths: Record<string, string | undefined> = {
    'job.status': behavior.status_endpoint,
    'job.result': behavior.result_endpoint,
    'job.cancel': behavior.cancel_endpoint,
    'job.resolution': tool.event_schema?.['needs_input']?.resolution_endpoint,
  };
  const path = paths[step.request.target];
  if (!path) throw new NotApplicable(`the job tool declares no ${step.request.target} endpoint`);
  return { url: `${base}${withArguments(path)}`, method: step.request.method, headers: jobHeaders, ...(body === undefined ? {} : { body }) };
}

/** The keyed tool's own request: its method and path (placeholders from the arguments), the other arguments as a JSON body, the key in its header. */
async function keyedCallTarget(step: Step, context: Context, headers: Record<string, string>): Promise<{ url: string; method: string; headers: Record<string, string>; body: string }> {
  const call = context.target.keyedCall!;
  const tool = (await loadManifest(context))?.tools.find((candidate) => candidate.id === call.toolId);
  if (!tool?.idempotency_key_header) throw new NotApplicable(`the manifest has no tool ${call.toolId} with an idempotency_key_header`);
  const inPath = new Set<string>();
  const path = tool.path.replace(/\{([^{}]+)\}/g, (_whole, name: string) => {
    inPath.add(name);
    return encodeURIComponent(String(call.arguments[name] ?? ''));
  });
  const body = Object.fromEntries(Object.entries(call.arguments).filter(([name]) => !inPath.has(name)));
  const key = fill(step.request.idempotency_key ?? '', context.variables);
  return {
    url: `${context.manifest!.service.base_url.replace(/\/+$/, '')}${path}`,
    method: tool.method,
    headers: { 'content-type': 'application/json', ...call.headers, ...headers, [tool.idempotency_key_header.toLowerCase()]: key },
    body: JSON.stringify(body),
  };
}

async function runStep(step: Step, context: Context, label: string): Promise<void> {
  const request = await resolveTarget(step, context);
  const attempts = step.repeat_until?.max_attempts ?? 1;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      signal: AbortSignal.timeout(step.read_events?.timeout_ms ?? 10_000),
    });
    const where = `${label}: ${request.method} ${request.url}`;
    if (step.when?.header_present && !response.headers.has(step.when.header_present)) throw new NotApplicable(`${where}: no ${step.when.header_present}, so the rule does not apply`);
    for (const [name, token] of Object.entries(step.when?.header_has_token ?? {}))
      if (!hasToken(response.headers.get(name), token)) throw new NotApplicable(`${where}: ${name} lacks ${token}, so the rule does not apply`);
    const stream = step.read_events ? await readEvents(response, step.read_events) : undefined;
    const events = stream?.events;
    const text = events ? '' : await response.text();
    if (step.repeat_until && attempt < attempts) {
      const value = pointerValue(safeJson(text), step.repeat_until.pointer);
      if (!step.repeat_until.in.includes(value)) {
        await new Promise((resolve) => setTimeout(resolve, step.repeat_until!.interval_ms));
        continue;
      }
    }
    if (request.method === 'START' || step.request.target === 'job.start') {
      const tool = await jobTool(context);
      const field = tool.temporal_behavior!.job_id_field ?? 'job_id';
      const id = pointerValue(safeJson(text), `/${field.split('.').join('/')}`);
      if (typeof id === 'string') context.variables['job_id'] = id;
    }
    checkStatus(step, response.status, where);
    for (const [name, matcher] of Object.entries(step.expect.headers ?? {})) checkHeader(response.headers.get(name), name, fillValue(matcher, context.variables) as Matcher, where);
    if (step.expect.body) checkBody(text, response.headers.get('etag'), step.expect.body, context.variables, where);
    if (step.expect.events) checkEvents(stream ?? { events: [], ended: false }, fillValue(step.expect.events, context.variables) as Matcher, where);
    for (const [name, source] of Object.entries(step.capture ?? {})) {
      const header = source.header ? response.headers.get(source.header) : undefined;
      const value =
        header !== undefined
          ? source.unquote
            ? header?.replace(/^"|"$/g, '')
            : header
          : source.json !== undefined
            ? pointerValue(safeJson(text), source.json)
            : source.event_id !== undefined
              ? events?.[source.event_id]?.id
              : undefined;
      if (value === undefined || value === null) throw new Expectation(`${where}: nothing to capture as ${name}`);
      context.variables[name] = typeof value === 'object' ? JSON.stringify(value) : String(value);
    }
    return;
  }
}

function checkStatus(step: Step, status: number, where: string): void {
  const allowed = step.expect.status === undefined ? undefined : [step.expect.status].flat();
  if (allowed && !allowed.includes(status)) throw new Expectation(`${where} answered ${status}; expected ${allowed.join(' or ')}`);
}

function hasToken(value: string | null, token: string): boolean {
  return (value ?? '').split(',').some((part) => part.trim().toLowerCase() === token.toLowerCase() || part.trim() === '*');
}

function checkHeader(value: string | null, name: string, matcher: Matcher, where: string): void {
  const fail = (expected: string): never => {
    throw new Expectation(`${where}: ${name} is ${value === null ? 'absent' : JSON.stringify(value)}; expected ${expected}`);
  };
  if (matcher['present'] === true && value === null) fail('a value');
  if (typeof matcher['media_type'] === 'string' && mediaTypeOf(value) !== matcher['media_type']) fail(matcher['media_type']);
  if (typeof matcher['matches'] === 'string' && !new RegExp(matcher['matches']).test(value ?? '')) fail(`to match ${matcher['matches']}`);
  if (typeof matcher['has_token'] === 'string' && !hasToken(value, matcher['has_token'])) fail(`to list ${matcher['has_token']}`);
  if (typeof matcher['has_directive'] === 'string' && !new RegExp(`(^|,)\\s*${matcher['has_directive']}\\b`, 'i').test(value ?? '')) fail(`the directive ${matcher['has_directive']}`);
  if (typeof matcher['not_equals'] === 'string' && (value === null || value === matcher['not_equals'])) fail(`a value other than ${matcher['not_equals']}`);
}

function checkBody(text: string, etag: string | null, matcher: Matcher, variables: Record<string, string>, where: string): void {
  if (matcher['empty'] === true && text.length > 0) throw new Expectation(`${where}: has a body of ${text.length} characters; expected none`);
  if (matcher['manifest_valid'] === true || matcher['no_secrets'] === true || matcher['etag_is_digest'] === true) {
    const result = parseManifest(text);
    if (!result.valid || !result.manifest)
      throw new Expectation(
        `${where}: the manifest is invalid: ${result.issues
          .slice(0, 3)
          .map((issue) => `${issue.pointer} ${issue.code}`)
          .join(', ')}`,
      );
    const secrets = matcher['no_secrets'] === true ? findSecretValues(result.manifest) : [];
    if (secrets.length > 0) throw new Expectation(`${where}: secret-looking values at ${secrets.map((secret) => secret.pointer).join(', ')}`);
    if (matcher['etag_is_digest'] === true && etag !== `"${digestManifest(result.manifest)}"`)
      throw new Expectation(`${where}: ETag ${etag} is not the quoted digest "${digestManifest(result.manifest)}"`);
  }
  const parsed = safeJson(text);
  if (typeof matcher['schema'] === 'string') checkSchema(parsed, matcher['schema'], where);
  if (typeof matcher['same_json_as'] === 'string') {
    const earlier = safeJson(fill(matcher['same_json_as'], variables));
    if (parsed === undefined || canonicalJson(parsed) !== canonicalJson(earlier))
      throw new Expectation(`${where}: the body ${text.slice(0, 200)} differs from ${JSON.stringify(earlier).slice(0, 200)}`);
  }
  const json = matcher['json'] as Record<string, Matcher> | undefined;
  if (!json) return;
  for (const [pointer, rule] of Object.entries(json)) {
    const value = pointerValue(parsed, pointer);
    const equals = rule['equals'] === undefined ? undefined : fillValue(rule['equals'], variables);
    if (rule['type'] !== undefined && typeof value !== rule['type']) throw new Expectation(`${where}: ${pointer} is ${JSON.stringify(value)}; expected a ${String(rule['type'])}`);
    if (equals !== undefined && value !== equals) throw new Expectation(`${where}: ${pointer} is ${JSON.stringify(value)}; expected ${JSON.stringify(equals)}`);
  }
}

function checkEvents({ events, ended }: { events: EventSourceMessage[]; ended: boolean }, matcher: Matcher, where: string): void {
  if (matcher['ended'] === true && !ended) throw new Expectation(`${where}: the stream stayed open after ${events.length} event(s)`);
  const last = events.at(-1);
  if (typeof matcher['max_count'] === 'number' && events.length > matcher['max_count']) throw new Expectation(`${where}: ${events.length} event(s); expected at most ${matcher['max_count']}`);
  const first = events[0];
  if (typeof matcher['first_id'] === 'string' && first?.id !== matcher['first_id'])
    throw new Expectation(`${where}: the first event's id is ${JSON.stringify(first?.id)}; expected ${JSON.stringify(matcher['first_id'])}`);
  for (const [pointer, rule] of Object.entries((matcher['first_data'] as Record<string, Matcher> | undefined) ?? {})) {
    const value = pointerValue(safeJson(first?.data ?? ''), pointer);
    if (value !== rule['equals']) throw new Expectation(`${where}: the first event's ${pointer} is ${JSON.stringify(value)}; expected ${JSON.stringify(rule['equals'])}`);
  }
  for (const [pointer, rule] of Object.entries((matcher['last_data'] as Record<string, Matcher> | undefined) ?? {})) {
    const value = pointerValue(safeJson(last?.data ?? ''), pointer);
    if (value !== rule['equals']) throw new Expectation(`${where}: the last event's ${pointer} is ${JSON.stringify(value)}; expected ${JSON.stringify(rule['equals'])}`);
  }
  const names = events.map((event) => event.event ?? 'message');
  for (const name of (matcher['contains'] as string[] | undefined) ?? [])
    if (!names.includes(name)) throw new Expectation(`${where}: the stream had no ${name} event (got ${names.join(', ') || 'none'})`);
  const ids = events.map((event) => Number(event.id));
  if (typeof matcher['min_count'] === 'number' && events.length < matcher['min_count']) throw new Expectation(`${where}: ${events.length} event(s); expected at least ${matcher['min_count']}`);
  if (matcher['ids_increasing'] === true && ids.some((id, index) => !Number.isFinite(id) || (index > 0 && id <= ids[index - 1]!)))
    throw new Expectation(`${where}: event ids ${ids.join(', ')} do not increase`);
  for (const [name, definition] of Object.entries((matcher['data_schemas'] as Record<string, string> | undefined) ?? {})) {
    for (const event of events.filter((candidate) => candidate.event === name)) checkSchema(safeJson(event.data), definition, `${where}: event ${event.id ?? ''} ${name}`);
  }
  if (matcher['ids_greater_than'] !== undefined && ids.some((id) => id <= Number(matcher['ids_greater_than'])))
    throw new Expectation(`${where}: replayed ids ${ids.join(', ')}; expected only ids after ${String(matcher['ids_greater_than'])}`);
}

async function readEvents(response: Response, bounds: { until: string[]; max_events: number; timeout_ms: number }): Promise<{ events: EventSourceMessage[]; ended: boolean }> {
  const events: EventSourceMessage[] = [];
  let ended = false;
  if (!response.body) return { events, ended: true };
  const parser = createParser({ onEvent: (event) => void events.push(event) });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const deadline = Date.now() + bounds.timeout_ms;
  try {
    while (events.length < bounds.max_events && Date.now() < deadline && !events.some((event) => bounds.until.includes(event.event ?? ''))) {
      const chunk = await reader.read();
      if (chunk.done) {
        ended = true;
        break;
      }
      parser.feed(decoder.decode(chunk.value, { stream: true }));
    }
  } catch {
    // A timed-out or cut stream ends reading; the expectations judge what arrived.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return { events, ended };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function pointerValue(value: unknown, pointer: string): unknown {
  let node = value;
  for (const token of pointer.split('/').slice(1)) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
