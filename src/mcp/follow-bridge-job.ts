import type { InputRequiredResult, ServerContext } from '@modelcontextprotocol/server';
import type { Client } from '../client/index.js';
import type { ApproveFunction } from '../client/index.js';
import type { Job, JobCheckpoint } from '../client/index.js';
import type { JobNeedsInputEvent } from '../client/index.js';
import { JobError } from '../client/index.js';
import type { Tool } from '../manifest/manifest-v0.js';
import { terminalSafeText } from '../internal/terminal-safe-text.js';
import { explainRefusedApproval } from './call-bridge-tool.js';
import type { BridgeTool } from './list-bridge-tools.js';
import type { McpSdk } from './load-mcp-sdk.js';
import type { BridgeRequestState } from './bridge-request-state.js';
import { toCallToolResult, type BridgeCallToolResult } from './to-call-tool-result.js';

/** Inputs of {@link followBridgeJob}. @internal */
export interface BridgeJobCall {
  client: Client;
  sdk: McpSdk;
  bridgeTool: BridgeTool;
  arguments: Record<string, unknown>;
  context: ServerContext;
  approve: ApproveFunction | undefined;
  /** The host declared elicitation. */
  hostElicits: boolean;
  /** Seals the state a retried request brings back. */
  mintState: (state: BridgeRequestState) => Promise<string>;
}

/** The key of a job's question in `inputRequests` / `inputResponses`. */
const JOB_INPUT_KEY = 'job_input';

/**
 * Starts an async job and follows it to its result, so the tool result is the job's result. Progress
 * events become `notifications/progress` when the host sent a progress token. A `needs_input`
 * question goes to the user through elicitation (a multi-round-trip `input_required` result: the
 * job's checkpoint travels, sealed, in `requestState`, and the retry answers and follows on). When
 * the host cannot elicit, the result is a resumable handle: job id, question, absolute URLs.
 * @internal
 */
export async function followBridgeJob(call: BridgeJobCall): Promise<BridgeCallToolResult | InputRequiredResult> {
  const { client, bridgeTool, context, sdk } = call;
  const state = context.mcpReq.requestState<BridgeRequestState>();
  let job: Job;
  // The resumed stream may replay the question just answered: it is not asked twice.
  let answered: string | undefined;
  if (typeof state === 'object' && state !== null && state.kind === 'job') {
    job = await client.resumeJob(state.checkpoint as JobCheckpoint, { signal: context.mcpReq.signal });
    const answer = sdk.inputResponse(context.mcpReq.inputResponses, JOB_INPUT_KEY);
    if (answer.kind !== 'elicit' || answer.action !== 'accept') return handle(client, job, bridgeTool, 'The user did not answer its question, so it still waits.');
    const delivered = await job.respond(answer.content?.['answer']);
    if (!delivered.ok) return handle(client, job, bridgeTool, `The answer was refused: ${delivered.error.userMessage}`);
    answered = JSON.stringify((state.checkpoint as JobCheckpoint).pendingInput);
  } else {
    try {
      job = await client.startJob(bridgeTool.tool.name, call.arguments, { signal: context.mcpReq.signal, ...(call.approve ? { call: { approve: call.approve } } : {}) });
    } catch (error) {
      if (error instanceof JobError && error.envelope) return toCallToolResult(explainRefusedApproval(error.envelope), { ...bridgeTool, structure: 'none' });
      throw error;
    }
  }
  const progressToken = context.mcpReq._meta?.progressToken;
  try {
    for await (const event of job) {
      if (event.type === 'progress' && progressToken !== undefined && event.percent !== undefined) {
        await context.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress: event.percent, total: 100 } });
      }
      if (event.type === 'needs_input') {
        if (answered !== undefined && JSON.stringify(event.data) === answered) continue;
        if (!call.hostElicits) {
          const { prompt, options } = questionOf(event);
          const offered = options.length > 0 ? ` (options: ${JSON.stringify(options)})` : '';
          return handle(client, job, bridgeTool, `It waits for an answer to: ${prompt ?? 'a question'}${offered}. This host cannot ask the user (no MCP elicitation).`);
        }
        return sdk.inputRequired({
          inputRequests: { [JOB_INPUT_KEY]: sdk.inputRequired.elicit(question(bridgeTool, event)) },
          requestState: await call.mintState({ kind: 'job', checkpoint: job.checkpoint() }),
        });
      }
      if (event.type === 'status' && event.terminal) break;
    }
  } catch (error) {
    if (error instanceof JobError) return handle(client, job, bridgeTool, `Following it stopped: ${error.message}`);
    throw error;
  }
  return toCallToolResult(await job.result(), bridgeTool);
}

/** Longest question, and option, the bridge hands on; the most options it offers. */
const MAX_PROMPT_LENGTH = 1_000;
const MAX_OPTION_LENGTH = 200;
const MAX_OPTIONS = 50;

/**
 * The job's question as the bridge may show it. It comes from the API at run time, unreviewed like
 * any response: it reaches the user's screen (elicitation) and the model (the handle's text), so it is
 * bounded, its control and reordering characters are made visible, and only string options are kept.
 */
function questionOf(event: JobNeedsInputEvent): { prompt: string | undefined; options: string[] } {
  const bounded = (text: string, maxLength: number): string => terminalSafeText(text.length > maxLength ? `${text.slice(0, maxLength)}…` : text);
  const options = (event.options ?? [])
    .filter((option): option is string => typeof option === 'string' && option !== '' && option.length <= MAX_OPTION_LENGTH)
    .slice(0, MAX_OPTIONS)
    .map((option) => terminalSafeText(option));
  return { prompt: event.prompt === undefined || event.prompt.trim() === '' ? undefined : bounded(event.prompt, MAX_PROMPT_LENGTH), options };
}

function question(
  bridgeTool: BridgeTool,
  event: JobNeedsInputEvent,
): { message: string; requestedSchema: { type: 'object'; properties: Record<string, { type: 'string'; title: string; enum?: string[] }>; required: string[] } } {
  const { prompt, options } = questionOf(event);
  return {
    message: `"${bridgeTool.definition.title}" asks: ${prompt ?? 'an answer is needed to continue'}`,
    requestedSchema: { type: 'object', properties: { answer: { type: 'string', title: 'Answer', ...(options.length > 0 ? { enum: options } : {}) } }, required: ['answer'] },
  };
}

/** A job the bridge stops following: what it waits for and where to follow it, as data the host can keep. */
function handle(client: Client, job: Job, bridgeTool: BridgeTool, why: string): BridgeCallToolResult {
  const state = job.state();
  const service = client.services().find((candidate) => candidate.namespace === bridgeTool.tool.namespace);
  const urls = service ? jobUrls(bridgeTool, service.manifest.service.base_url, job.id) : {};
  const summary = { job_id: job.id, status: state.status ?? 'running', ...(state.percent === undefined ? {} : { percent: state.percent }), ...urls };
  const text = [
    `Job ${job.id} of "${bridgeTool.definition.title}" is ${summary.status}${state.percent === undefined ? '' : ` (${state.percent}%)`}. ${why}`,
    ...Object.entries(urls).map(([name, url]) => `${name.replace(/_url$/, '')}: ${url}`),
    `The job goes on on the server; a client can follow it with resumeJob(${JSON.stringify(job.id)}, { tool: ${JSON.stringify(bridgeTool.tool.name)} }).`,
  ].join('\n');
  return { isError: false, content: [{ type: 'text', text }], ...(bridgeTool.structure === 'object' ? { structuredContent: { job: summary } } : {}) };
}

/** The job's endpoints as absolute URLs, so a host (or its user) can follow it without the bridge. */
function jobUrls(bridgeTool: BridgeTool, baseUrl: string, jobId: string): Record<string, string> {
  const temporal = (bridgeTool.tool.definition as Tool).temporal_behavior;
  if (!temporal) return {};
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  const absolute = (path: string): string => new URL(path.replace(/^\//, '').replace(/\{[^}]+\}/g, encodeURIComponent(jobId)), base).href;
  return {
    status_url: absolute(temporal.status_endpoint),
    ...(temporal.result_endpoint ? { result_url: absolute(temporal.result_endpoint) } : {}),
    ...(temporal.cancel_endpoint ? { cancel_url: absolute(temporal.cancel_endpoint) } : {}),
  };
}
