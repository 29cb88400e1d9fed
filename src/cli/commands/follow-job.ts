import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { AicapError } from '../../errors/aicap-error.js';
import { JobError } from '../../client/call-seam.js';
import type { CallEnvelope, Client, JobEvent, JobNeedsInputEvent } from '../../client/index.js';
import type { CliIo } from '../cli-io.js';
import { cliAdvice, cliEnvelope, cliErrorMessage } from '../cli-error-message.js';
import { printRedactedJson, type RedactingIo } from '../redacting-io.js';
import { renderProgress } from '../render-progress.js';
import { terminalSafeJson, terminalSafeText } from '../../internal/terminal-safe-text.js';

/** How `aicap call` follows an async job. */
export interface FollowJobCliOptions {
  /** Print every event as one JSON line on stdout before the final envelope (`--events`). */
  events: boolean;
  /** The answer to a `needs_input` question (`--input`): JSON, or plain text when it is not JSON. */
  input: string | undefined;
  /** Only the envelope on stdout, no summary on stderr (`--json`). */
  json: boolean;
}

/** True when the tool is an async job (declares `temporal_behavior`), so `aicap call` follows it. */
export function isAsyncJob(client: Client, toolId: string): boolean {
  try {
    return 'temporal_behavior' in client.resolveTool(toolId).tool;
  } catch {
    // An unknown tool is reported by the normal call path, with its usual envelope.
    return false;
  }
}

/**
 * Starts the job, follows it to its end and prints the result envelope: a progress bar on a terminal
 * (percentage lines otherwise) on stderr, `needs_input` asked on a terminal or answered by `--input`
 * (refused otherwise), `--events` as JSON lines on stdout. Exit 0 when the result is ok, 1 otherwise,
 * 2 for an unusable `--input`.
 */
export async function followJobInCli(client: Client, toolId: string, args: Record<string, unknown>, io: RedactingIo, options: FollowJobCliOptions): Promise<number> {
  const answer = options.input === undefined ? undefined : { value: parseInput(options.input) };
  let lastPercent: number | undefined;
  let barShown = false;
  const clearBar = (): void => {
    if (barShown) io.stderr('\r\x1b[2K');
    barShown = false;
  };
  const needsInput = async (event: JobNeedsInputEvent): Promise<unknown> => {
    if (answer !== undefined) return answer.value;
    if (!io.isInteractive) {
      throw new AicapError(
        'INVALID_OPTION',
        `The job asks "${terminalSafeText(event.prompt ?? 'for input')}"${event.options?.length ? ` (options: ${event.options.map((option) => terminalSafeText(JSON.stringify(option))).join(', ')})` : ''} and there is no terminal to ask; pass the answer with \`--input\`.`,
      );
    }
    clearBar();
    return askQuestion(io, event);
  };

  let job;
  try {
    // Arguments as a strict-mode model writes them: `null` for an optional field it leaves out.
    job = await client.startJob(toolId, args, { needsInput, call: { nullMeansAbsent: true } });
  } catch (error) {
    if (error instanceof JobError && error.envelope !== undefined) return printEnvelope(io, error.envelope, options.json);
    return fail(io, error, options.json);
  }
  if (!options.json) io.info(`${terminalSafeText(toolId)}: job ${terminalSafeText(job.id)} started`);
  try {
    for await (const event of job) {
      if (options.events) printRedactedJson(io, describeEvent(event), { compact: true });
      if (options.json) continue;
      if (event.type === 'progress' && event.percent !== undefined && event.percent !== lastPercent) {
        lastPercent = event.percent;
        renderProgress(io, event.percent);
        barShown = io.isInteractive;
      } else if (event.type === 'warning') {
        clearBar();
        io.warn(terminalSafeText(event.message ?? JSON.stringify(event.data)));
      } else if (event.type === 'status') {
        clearBar();
        io.stderr(`… ${terminalSafeText(event.status)}\n`);
      } else if (event.type === 'needs_input' && !io.isInteractive) {
        // On a terminal the question is asked by the prompt itself.
        io.stderr(`? ${terminalSafeText(event.prompt ?? 'The job needs input.')}${answer === undefined ? '' : ` → ${terminalSafeText(JSON.stringify(answer.value))}`}\n`);
      }
    }
  } catch (error) {
    clearBar();
    return fail(io, error, options.json, job.id);
  }
  clearBar();
  return printEnvelope(io, await job.result(), options.json);
}

function printEnvelope(io: RedactingIo, envelope: CallEnvelope, json: boolean): number {
  printRedactedJson(io, cliEnvelope(envelope));
  if (!json) {
    const toolId = terminalSafeText(envelope.meta.toolId);
    if (envelope.ok) io.info(`${toolId}: ${envelope.status} (${envelope.meta.durationInMs} ms)`);
    else
      io.error(`${toolId}: ${envelope.error?.code ?? 'failed'}${envelope.error?.status ? ` (HTTP ${envelope.error.status})` : ''}: ${cliAdvice(envelope.error?.message ?? '', envelope.error?.terms)}`);
  }
  return envelope.ok ? 0 : 1;
}

function fail(io: RedactingIo, error: unknown, json: boolean, jobId?: string): number {
  const code = AicapError.isInstance(error) ? error.code : 'JOB_FAILED';
  const message = cliErrorMessage(error);
  if (json) printRedactedJson(io, { ok: false, error: { code, message, ...(jobId === undefined ? {} : { jobId }) } });
  io.error(`${message}${jobId === undefined ? '' : ` (job ${terminalSafeText(jobId)})`}`);
  return 1;
}

/** The JSON line printed for an event: what it is, its id and data, never a function or a cycle. */
function describeEvent(event: JobEvent): Record<string, unknown> {
  const base = { type: event.type, name: event.name, id: event.id ?? null, source: event.source };
  if (event.type === 'status') return { ...base, status: event.status, terminal: event.terminal, data: event.data };
  if (event.type === 'progress') return { ...base, percent: event.percent ?? null, data: event.data };
  if (event.type === 'resync') return { ...base, state: { ...event.state, pendingInput: event.state.pendingInput?.data ?? null }, data: event.data };
  return { ...base, data: event.data };
}

function parseInput(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // `--input include` is friendlier than `--input '"include"'`.
    return text;
  }
}

/** Asks the question on the terminal: a number picks an offered option, anything else is the answer itself. @internal */
export async function askQuestion(io: CliIo, event: Pick<JobNeedsInputEvent, 'prompt' | 'options'>, input: NodeJS.ReadableStream = process.stdin): Promise<unknown> {
  // Prompts go through `io` like every other human output (and can be captured in tests).
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      io.stderr(String(chunk));
      callback();
    },
  });
  const readline = createInterface({ input, output });
  try {
    const options = event.options ?? [];
    // The prompt and the options come from the API: escaped, so that they cannot redraw the screen.
    const shown = options.map((option, index) => `  ${index + 1}) ${terminalSafeText(typeof option === 'string' ? option : terminalSafeJson(option, { compact: true }).trimEnd())}`);
    io.stderr(`\n${terminalSafeText(event.prompt ?? 'The job needs input.')}\n${shown.join('\n')}\n`);
    for (;;) {
      const reply = (await readline.question(options.length > 0 ? `Choose 1-${options.length}: ` : 'Answer: ')).trim();
      const picked = /^\d+$/.test(reply) ? options[Number(reply) - 1] : undefined;
      if (picked !== undefined) return picked;
      const value = parseInput(reply);
      if (options.length === 0 || options.some((option) => JSON.stringify(option) === JSON.stringify(value))) return value;
      io.warn(`Pick one of the ${options.length} options by number.`);
    }
  } finally {
    readline.close();
  }
}
