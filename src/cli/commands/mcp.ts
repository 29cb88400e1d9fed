import { DEFAULT_PASSWORD_VARIABLE } from '../basic-credentials.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AicapError } from '../../index.js';
import type { Client, OriginCredentials } from '../../client/index.js';
import { createMcpBridge, type UnavailableService } from '../../mcp/index.js';
import { toNodeListener } from '../../server/index.js';
import type { CliCommand, CliIo } from '../cli-io.js';
import { loadMcpSdk } from '../../mcp/load-mcp-sdk.js';
import { cliErrorMessage } from '../cli-error-message.js';
import { MANIFEST_READING_FLAGS, clientOptionsFromFlags, manifestReadingUsage, readManifestReadingFlags } from '../network-flags.js';
import { parseCommandLine, readWholeNumberOption } from '../parse-command-line.js';
import { SESSION_FLAGS, SHARED_STATE_ENVIRONMENT, openSharedState, sessionUsage } from '../shared-state.js';
import { terminalSafeText } from '../../internal/terminal-safe-text.js';
import type { EncryptedFileTokenStore } from '../../client/seam.js';
import { discoverWithStoredLogin, storedLoginsFor, warnAboutWithheldCredentials } from '../user-tokens.js';

const USAGE = `Usage: aicap mcp <origin|manifest-url>... [--token [<origin>=]<t>]... [--api-key [<origin>=]<k>]...
                 [--http [--port <n>]] [--query <text>] [--max-tools <n>] [--agent-id <id>] [--host-approves]

Serves the tools, resources and prompts of one or more manifest APIs to MCP hosts, over stdio (the
host's server command) or Streamable HTTP, to MCP 2026-07-28 and 2025-11-25 hosts. Calls go straight
to each API through aicap's client: arguments validated, credentials bound to their origin, retries
by the declared contract. Calls that need approval are asked through the host (MCP elicitation).

  --token [<origin>=]<t>    bearer token for that origin (repeatable); without <origin>=, for the
                            only origin given
  --api-key [<origin>=]<k>  API key, the same way; an origin with neither uses the tokens
                            \`aicap login <origin>\` stored, if any (refreshed as needed)
  --username [<origin>=]<u> HTTP Basic user name, the same way
  --password-env [<origin>=]<VAR>
                            environment variable holding that origin's Basic password (default
                            ${DEFAULT_PASSWORD_VARIABLE}; empty when unset), so it stays out of shell history
  --http                    serve Streamable HTTP on 127.0.0.1 instead of stdio; prints the endpoint
                            URL (http://127.0.0.1:PORT/mcp) on stdout first. The Server Card is at
                            <endpoint>/server-card, an AI Catalog at /.well-known/ai-catalog.json
  --port <n>                port for --http, default 0 (any free port)
  --query <text>            list only the tools that best fit this request
  --max-tools <n>           list at most n tools (hosts cap around 128; with --query, default 20)
  --agent-id <id>           value of the agent id header when a manifest asks for one, default "aicap-mcp"
  --host-approves           for hosts without elicitation: tools that need human approval run when
                            the host calls them (the host asked the user); without it they are refused
${sessionUsage(26)}${manifestReadingUsage(26)}  -h, --help                show this help

An origin that cannot be loaded is reported on stderr and listed as one tool that says why (and
retries); the others are served. Exit status: 0 when the host disconnects (stdio) or on SIGINT/SIGTERM
(--http), 1 when no origin could be loaded, 2 usage error.
${SHARED_STATE_ENVIRONMENT}`;

/** `aicap mcp <origin…>`: a thin wrapper over `createMcpBridge`, on stdio or Streamable HTTP. */
export const mcpCommand: CliCommand = {
  async run(argv: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandLine(argv, io, {
      usage: USAGE,
      options: {
        token: { type: 'string', multiple: true },
        'api-key': { type: 'string', multiple: true },
        username: { type: 'string', multiple: true },
        'password-env': { type: 'string', multiple: true },
        'agent-id': { type: 'string', default: 'aicap-mcp' },
        'host-approves': { type: 'boolean', default: false },
        http: { type: 'boolean', default: false },
        port: { type: 'string' },
        query: { type: 'string' },
        'max-tools': { type: 'string' },
        ...SESSION_FLAGS,
        ...MANIFEST_READING_FLAGS,
      },
      positionals: { min: 1, missing: 'the origin or manifest URL of at least one API', expected: 'origins or manifest URLs' },
    });
    if (typeof parsed === 'number') return parsed;
    const targets = parsed.positionals;
    const credentials = readCredentials(io, targets, parsed.values);
    if (credentials === undefined) return 2;
    const logins = new Map<string, EncryptedFileTokenStore | undefined>();
    for (const target of targets) {
      const store = storedLoginsFor(io, credentials.get(target) ?? {});
      if (typeof store === 'number') return store;
      logins.set(target, store);
    }
    const port = readWholeNumberOption(io, 'port', parsed.values.port, { fallback: 0, min: 0, max: 65_535, unit: 'a TCP port' });
    const maxTools = parsed.values['max-tools'] === undefined ? undefined : readWholeNumberOption(io, 'max-tools', parsed.values['max-tools'], { fallback: 0, min: 1, unit: 'tools' });
    if (port === undefined || (parsed.values['max-tools'] !== undefined && maxTools === undefined)) return 2;
    if (parsed.values.port !== undefined && !parsed.values.http) {
      io.error('The `--port` option applies to `--http` only; add --http or drop --port.');
      return 2;
    }
    const limits = readManifestReadingFlags(io, parsed.values);
    const clientOptions = limits === undefined ? undefined : clientOptionsFromFlags(io, limits);
    if (clientOptions === undefined) return 2;
    try {
      // A set-up problem, said before any discovery: the optional peer is missing.
      await loadMcpSdk();
    } catch (error) {
      io.error(cliErrorMessage(error));
      return 2;
    }
    const hostApproves = parsed.values['host-approves'];
    const shared = await openSharedState(io, { session: parsed.values.session, requireSession: true });
    if (typeof shared === 'number') return shared;
    // Hosts without elicitation confirm tool calls with the user themselves; only then is auto-approval honest.
    const client = shared.createClient({ ...clientOptions, agentId: parsed.values['agent-id'], approve: () => hostApproves });
    const unavailable = await discoverAll(client, targets, { credentials, logins }, io);
    if (unavailable.length === targets.length) {
      await client.close();
      return 1;
    }
    const bridge = await createMcpBridge({
      client,
      unavailable,
      ...(parsed.values.query === undefined ? {} : { query: parsed.values.query }),
      ...(maxTools === undefined ? {} : { maxTools }),
    });
    const exposed = client.catalog().tools.length;
    if (maxTools !== undefined && exposed > maxTools)
      io.warn(
        `${exposed} tools in the catalog; listing ${maxTools}${parsed.values.query === undefined ? ' (the first ones; --query picks the best fits)' : ` that fit ${JSON.stringify(terminalSafeText(parsed.values.query))}`}.`,
      );
    if (parsed.values.http) return serveHttp(bridge, port, client, io);
    await bridge.serveStdio();
    await client.close();
    return 0;
  },
};

type CredentialsByTarget = Map<string, OriginCredentials>;

/** `--token <origin>=<t>` binds a token to one origin; a bare `--token <t>` is allowed for a single origin only (which one would be ambiguous). */
function readCredentials(io: CliIo, targets: readonly string[], flags: Partial<Record<'token' | 'api-key' | 'username' | 'password-env', string[]>>): CredentialsByTarget | undefined {
  const byTarget: CredentialsByTarget = new Map(targets.map((target) => [target, {}]));
  const passwordVariables = new Map<string, string>();
  const assign = (flag: string, field: 'token' | 'apiKey' | 'username' | 'passwordVariable', values: readonly string[] = []): boolean => {
    const set = (target: string, value: string): void => {
      if (field === 'passwordVariable') passwordVariables.set(target, value);
      else byTarget.get(target)![field] = value;
    };
    for (const value of values) {
      const bound = /^(https?:\/\/[^\s=]+)=(.+)$/.exec(value);
      if (!bound) {
        if (targets.length !== 1) {
          io.error(`\`--${flag}\` without an origin is ambiguous with ${targets.length} origins; write \`--${flag} <origin>=<value>\` (for example --${flag} ${terminalSafeText(targets[0]!)}=…).`);
          return false;
        }
        set(targets[0]!, value);
        continue;
      }
      const origin = safeOrigin(bound[1]!);
      const matching = targets.filter((target) => safeOrigin(target) === origin);
      if (origin === undefined || matching.length === 0) {
        io.error(`\`--${flag}\` names ${terminalSafeText(bound[1]!)}, which is not one of the origins given (${targets.map((target) => terminalSafeText(target)).join(', ')}).`);
        return false;
      }
      for (const target of matching) set(target, bound[2]!);
    }
    return true;
  };
  if (!(
    assign('token', 'token', flags.token) &&
    assign('api-key', 'apiKey', flags['api-key']) &&
    assign('username', 'username', flags.username) &&
    assign('password-env', 'passwordVariable', flags['password-env'])
  ))
    return undefined;
  for (const [target, credentials] of byTarget) {
    const variable = passwordVariables.get(target);
    if (credentials.username === undefined) {
      if (variable === undefined) continue;
      io.error(`\`--password-env\` for ${terminalSafeText(target)} needs \`--username\` for it: it is the password of HTTP Basic credentials.`);
      return undefined;
    }
    const password = process.env[variable ?? DEFAULT_PASSWORD_VARIABLE];
    if (password === undefined && variable !== undefined) {
      io.error(`\`--password-env\`: the environment variable ${terminalSafeText(variable)} is not set; export it with the password first.`);
      return undefined;
    }
    credentials.password = password ?? '';
  }
  return byTarget;
}

function safeOrigin(value: string): string | undefined {
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
}

async function discoverAll(
  client: Client,
  targets: readonly string[],
  given: { credentials: CredentialsByTarget; logins: Map<string, EncryptedFileTokenStore | undefined> },
  io: CliIo,
): Promise<UnavailableService[]> {
  const unavailable: UnavailableService[] = [];
  for (const target of targets) {
    const discover = () => discoverWithStoredLogin(client, io, target, given.credentials.get(target) ?? {}, given.logins.get(target));
    try {
      const service = await discover();
      warnAboutWithheldCredentials(io, service);
      io.info(`${terminalSafeText(service.manifest.service.name)}: ${service.manifest.tools.length} tool(s) from ${service.origin}`);
    } catch (error) {
      const reason = AicapError.isInstance(error) || error instanceof Error ? error.message : String(error);
      io.error(`${terminalSafeText(target)} is unavailable (its tools are not listed; the others are served): ${cliErrorMessage(error)}`);
      unavailable.push({ target, reason, retry: discover });
    }
  }
  return unavailable;
}

async function serveHttp(bridge: Awaited<ReturnType<typeof createMcpBridge>>, port: number, client: Client, io: CliIo): Promise<number> {
  const server = createServer(toNodeListener(bridge.fetch));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  } catch (error) {
    io.error(`Cannot listen on 127.0.0.1:${port} (--port): ${error instanceof Error ? error.message : String(error)}`);
    await client.close();
    return 1;
  }
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  io.stdout(`${endpoint}\n`);
  io.info(`Serving MCP (2026-07-28 and 2025-11-25, stateless) at ${endpoint}; Server Card at ${endpoint}/server-card`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await bridge.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await client.close();
  return 0;
}
