import { AicapError } from '../../index.js';
import { createClient } from '../../client/index.js';
import { createMcpBridge } from '../../mcp/index.js';
import type { CliCommand, CliIo } from '../cli-io.js';
import { parseCommandLine } from '../parse-command-line.js';

const USAGE = `Usage: aicap mcp <origin|manifest-url>... [--token <t>] [--api-key <k>] [--agent-id <id>] [--host-approves]

Serves the tools, resources and prompts of one or more manifest APIs to an MCP host over stdio
(configure it as the host's server command). Calls go straight to each API through aicap's client:
arguments validated, credentials bound to their origin, retries by the declared contract.

  --token <t>       bearer token for the (first) origin
  --api-key <k>     API key for the (first) origin
  --agent-id <id>   value of the agent id header when a manifest asks for one, default "aicap-mcp"
  --host-approves   tools that need human approval run when the host calls them (the host asked the
                    user); without it they are refused
  -h, --help        show this help

Exit status: 0 when the host disconnects, 1 when discovery fails, 2 usage error.
`;

/** `aicap mcp <origin>`: a thin wrapper over `createMcpBridge` with the SDK's stdio transport. */
export const mcpCommand: CliCommand = {
  summary: 'serve manifest APIs to an MCP host over stdio',
  async run(argv: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandLine(argv, io, {
      usage: USAGE,
      options: {
        token: { type: 'string' },
        'api-key': { type: 'string' },
        'agent-id': { type: 'string', default: 'aicap-mcp' },
        'host-approves': { type: 'boolean', default: false },
      },
      positionals: { min: 1, missing: 'the origin or manifest URL of at least one API', expected: 'origins or manifest URLs' },
    });
    if (typeof parsed === 'number') return parsed;
    const hostApproves = parsed.values['host-approves'];
    const client = createClient({
      agentId: parsed.values['agent-id'],
      // MCP hosts confirm tool calls with the user themselves; only then is auto-approval honest.
      approve: () => hostApproves,
    });
    try {
      for (const [index, target] of parsed.positionals.entries()) {
        const credentials = index === 0 ? { ...(parsed.values.token ? { token: parsed.values.token } : {}), ...(parsed.values['api-key'] ? { apiKey: parsed.values['api-key'] } : {}) } : {};
        const service = await client.discover(target, { credentials });
        io.info(`${service.manifest.service.name}: ${service.manifest.tools.length} tool(s) from ${service.origin}`);
      }
    } catch (error) {
      io.error(AicapError.isInstance(error) ? error.message : String(error));
      await client.close();
      return 1;
    }
    const server = await createMcpBridge({ client });
    const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
      process.stdin.once('end', () => resolve());
    });
    await server.connect(transport);
    await closed;
    await server.close();
    await client.close();
    return 0;
  },
};
