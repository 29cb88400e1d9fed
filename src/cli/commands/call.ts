import { BASIC_CREDENTIAL_FLAGS, basicCredentialUsage, readBasicCredentials } from '../basic-credentials.js';
import { createInterface } from 'node:readline/promises';
import { AicapError } from '../../errors/aicap-error.js';
import type { ApprovalRequest, CallEnvelope, Client, OriginCredentials } from '../../client/index.js';
import { CACHE_FLAGS, cacheStoreOfFlags, cacheUsage } from '../cli-cache.js';
import type { CliCommand, CliIo } from '../cli-io.js';
import { cliAdvice, cliEnvelope, cliErrorMessage } from '../cli-error-message.js';
import { MANIFEST_READING_FLAGS, TRUST_FLAGS, clientOptionsFromFlags, manifestReadingUsage, readManifestReadingFlags } from '../network-flags.js';
import { parseCommandLine, readWholeNumberOption } from '../parse-command-line.js';
import { createRedactingIo, printRedactedJson, type RedactingIo } from '../redacting-io.js';
import { SESSION_FLAGS, SHARED_STATE_ENVIRONMENT, openSharedState, sessionUsage } from '../shared-state.js';
import { terminalSafeJson, terminalSafeText } from '../../internal/terminal-safe-text.js';
import { discoverWithStoredLogin, storedLoginsFor, warnAboutWithheldCredentials } from '../user-tokens.js';
import { followJobInCli, isAsyncJob } from './follow-job.js';

// The client's own default for following a job (`jobs.follow.maxDurationInMs`), shown in the usage.
const DEFAULT_MAX_JOB_DURATION_IN_MS = 1_800_000;

const USAGE = `Usage: aicap call <origin> <toolId> [json-args] [options]

Discovers the manifest of <origin>, calls one tool and prints the result envelope as JSON on stdout.

  <origin>            the API's origin (or manifest URL), e.g. https://api.example.com
  <toolId>            the tool (or resource) id, or the name a model would see
  [json-args]         the arguments as a JSON object, default {}
  --token <T>         bearer token for <origin>; without --token and --api-key, the tokens
                      \`aicap login <origin>\` stored are used (and refreshed)
  --api-key <K>       API key for <origin> (where the manifest says; X-API-Key otherwise)
${basicCredentialUsage(22)}  --agent-id <ID>     agent id, for services that require one
  --approve           approve the call up front (otherwise a tool that needs approval asks on a
                      terminal and is refused when there is none)
  --all-pages         follow every page and print the items together
  --max-items <N>     with --all-pages, stop after N items
  --events            async jobs: print each job event as a JSON line on stdout before the envelope
  --input <answer>    async jobs: the answer to the job's question (JSON, or plain text); without
                      it the question is asked on a terminal and refused when there is none
  --max-duration <ms> async jobs: stop following after this long (the job goes on on its server),
                      default ${DEFAULT_MAX_JOB_DURATION_IN_MS}; 0 for no limit
  --json              print only the envelope (no summary on stderr)
${sessionUsage(20)}  --pin               approve the tool's current definition first: its digest is pinned in
                      Redis (needs AICAP_REDIS_URL), and a later change disables it in every
                      process until it is pinned again
${manifestReadingUsage(20, { allowOrigin: true })}${cacheUsage(20)}  -h, --help          show this help

Exit status: 0 the call succeeded, 1 it failed (the envelope says why), 2 usage error, Redis
(AICAP_REDIS_URL) could not be used, or the service could not be discovered. The token, the API
key and the values the manifest's redact_from_logs names are replaced by [REDACTED] in everything
printed.
${SHARED_STATE_ENVIRONMENT}`;

/** `aicap call <origin> <toolId> [json-args]`: a thin wrapper over `createClient().call`. */
export const callCommand: CliCommand = {
  async run(argv: string[], processIo: CliIo): Promise<number> {
    const parsed = parseCommandLine(argv, processIo, {
      usage: USAGE,
      options: {
        token: { type: 'string' },
        'api-key': { type: 'string' },
        ...BASIC_CREDENTIAL_FLAGS,
        'agent-id': { type: 'string' },
        approve: { type: 'boolean', default: false },
        'all-pages': { type: 'boolean', default: false },
        'max-items': { type: 'string' },
        events: { type: 'boolean', default: false },
        input: { type: 'string' },
        'max-duration': { type: 'string' },
        json: { type: 'boolean', default: false },
        pin: { type: 'boolean', default: false },
        ...SESSION_FLAGS,
        ...CACHE_FLAGS,
        ...MANIFEST_READING_FLAGS,
        ...TRUST_FLAGS,
      },
      positionals: { min: 2, max: 3, missing: 'the origin or the tool id', expected: 'at most 3 arguments' },
    });
    if (typeof parsed === 'number') return parsed;
    const { values, positionals } = parsed;
    const basic = readBasicCredentials(processIo, values);
    if (typeof basic === 'number') return basic;
    const io = createRedactingIo(processIo, [values.token, values['api-key'], basic?.password]);
    const [origin, toolId, argsText] = positionals as [string, string, string | undefined];
    if ([values.token, values['api-key'], basic].filter((given) => given !== undefined).length > 1) {
      io.error('Give one of `--token`, `--api-key` or `--username`, not several.');
      return 2;
    }
    let args: Record<string, unknown> = {};
    if (argsText !== undefined) {
      let value: unknown;
      try {
        value = JSON.parse(argsText);
      } catch (error) {
        io.error(`The arguments are not valid JSON (${(error as Error).message}); pass an object such as '{"account_id":"12345"}'.`);
        return 2;
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        io.error('The arguments must be a JSON object, such as \'{"account_id":"12345"}\'.');
        return 2;
      }
      args = value as Record<string, unknown>;
    }
    const maxItems = readWholeNumberOption(io, 'max-items', values['max-items'], { fallback: Number.POSITIVE_INFINITY, min: 1, unit: 'items' });
    const maxDurationInMs = readWholeNumberOption(io, 'max-duration', values['max-duration'], { fallback: DEFAULT_MAX_JOB_DURATION_IN_MS, min: 0, unit: 'milliseconds' });
    const limits = readManifestReadingFlags(io, values);
    const clientOptions = limits === undefined ? undefined : clientOptionsFromFlags(io, limits, values['allow-origin']);
    if (maxItems === undefined || maxDurationInMs === undefined || clientOptions === undefined) return 2;
    const credentials: OriginCredentials = {
      ...(values.token === undefined ? {} : { token: values.token }),
      ...(values['api-key'] === undefined ? {} : { apiKey: values['api-key'] }),
      ...(basic === undefined ? {} : basic),
    };
    const logins = storedLoginsFor(io, credentials);
    if (typeof logins === 'number') return logins;

    const shared = await openSharedState(io, { session: values.session, requireSession: true, pin: values.pin, cache: cacheStoreOfFlags(io, values) });
    if (typeof shared === 'number') return shared;
    let client: Client;
    try {
      client = shared.createClient({
        ...clientOptions,
        jobs: { follow: { maxDurationInMs } },
        ...(values['agent-id'] === undefined ? {} : { agentId: values['agent-id'] }),
        approve: values.approve ? () => true : (request) => askApproval(io, request),
      });
    } catch (error) {
      io.error(cliErrorMessage(error));
      return 2;
    }
    try {
      try {
        const service = await discoverWithStoredLogin(client, io, origin, credentials, logins);
        warnAboutWithheldCredentials(io, service);
        if (values.pin) await client.approve(toolId);
        io.redactor.addParameterNames(service.manifest.policy?.redact_from_logs ?? []);
        // Learns the values under redacted names, wherever the API echoes them.
        io.redactor.arguments(args);
      } catch (error) {
        const message = cliErrorMessage(error);
        if (values.json) io.stdout(terminalSafeJson({ ok: false, error: { code: AicapError.isInstance(error) ? error.code : 'DISCOVERY_FAILED', message } }));
        io.error(message);
        return 2;
      }
      if (isAsyncJob(client, toolId)) return await followJobInCli(client, toolId, args, io, { events: values.events, input: values.input, json: values.json });
      // Agents shell out with a strict-mode model's arguments: `null` for an optional field means absent, as `client.call` takes it with `nullMeansAbsent`.
      const envelope = await client.call(toolId, args, { allPages: values['all-pages'], nullMeansAbsent: true, ...(values['max-items'] === undefined ? {} : { maxItems }) });
      printRedactedJson(io, cliEnvelope(envelope));
      if (!values.json) summarize(io, envelope);
      // A missing or wrong option is a usage error (exit 2): it names the flag to add.
      return envelope.ok ? 0 : envelope.error?.code === 'INVALID_OPTION' ? 2 : 1;
    } finally {
      await client.close();
    }
  },
};

/** Asks on the terminal; without one, refuses (approval fails closed). The description comes from the manifest: a CR in it must not overwrite what the human reads. */
async function askApproval(io: RedactingIo, request: ApprovalRequest): Promise<boolean> {
  if (!io.isInteractive) {
    io.warn(`"${terminalSafeText(request.exposedName)}" needs approval (${terminalSafeText(request.reasons.join('; '))}) and there is no terminal to ask; pass \`--approve\` to approve it up front.`);
    return false;
  }
  const readline = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const shown = terminalSafeJson(io.redactor.arguments(request.arguments));
    io.stderr(`\n${request.method} ${terminalSafeText(request.url)} · ${terminalSafeText(request.exposedName)}\n${terminalSafeText(request.description)}\nArguments: ${shown}`);
    const answer = await readline.question('Approve this call? [y/N] ');
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    readline.close();
  }
}

function summarize(io: CliIo, envelope: CallEnvelope): void {
  const { meta } = envelope;
  const facts = `${meta.attempts} ${meta.attempts === 1 ? 'request' : 'requests'}, ${meta.durationInMs} ms`;
  if (envelope.ok) {
    const items = envelope.items === undefined ? '' : `, ${envelope.items.length} items${envelope.page && !envelope.page.complete ? ' (more available)' : ''}`;
    io.info(`${terminalSafeText(meta.toolId)}: ${envelope.status}${items} (${facts})`);
    return;
  }
  const error = envelope.error;
  io.error(`${terminalSafeText(meta.toolId)}: ${error?.code ?? 'failed'}${error?.status ? ` (HTTP ${error.status})` : ''}: ${cliAdvice(error?.message ?? '', error?.terms)} (${facts})`);
  if (error?.userMessage) io.stderr(`  ${cliAdvice(error.userMessage, error.terms)}\n`);
}
