import type { MessageTerm } from '../../errors/message-term.js';
import { AicapError } from '../../index.js';
import type { DiscoveredService, OriginCredentials } from '../../client/index.js';
import { EXPORT_FORMATS, exportTools, selectTools, type Catalog, type CatalogTool, type ExportFormat } from '../../tools/index.js';
import { CACHE_FLAGS, cacheStoreOfFlags, cacheUsage } from '../cli-cache.js';
import type { CliCommand, CliIo } from '../cli-io.js';
import { cliAdvice, cliErrorMessage } from '../cli-error-message.js';
import { MANIFEST_READING_FLAGS, TRUST_FLAGS, clientOptionsFromFlags, manifestReadingUsage, readManifestReadingFlags } from '../network-flags.js';
import { parseCommandLine } from '../parse-command-line.js';
import { createRedactingIo } from '../redacting-io.js';
import { isUrlSource, readManifestFile } from '../read-manifest-file.js';
import { SHARED_STATE_ENVIRONMENT, openSharedState } from '../shared-state.js';
import { terminalSafeJson, terminalSafeText } from '../../internal/terminal-safe-text.js';
import { discoverWithStoredLogin, storedLoginsFor } from '../user-tokens.js';

const DEFAULT_TOP = 5;

const USAGE = `Usage: aicap tools <origin | manifest URL | file> [--format <format>] [--query "…" [--top K]] [--token T] [--scopes a,b] [--include-deprecated] [--json] [--timeout ms] [--max-size bytes] [--allow-origin origin]

Discovers (or reads) a manifest, applies the trust checks, and prints its tools in an LLM's format.

  <origin | URL>         https://api.example.com (discovery) or the manifest URL itself
  <file>                 a manifest file; its tools are bound to the origin of service.base_url
  --format <format>      ${EXPORT_FORMATS.join(' | ')} (default openai)
  --query "…"            only the tools that fit this request, best first (offline ranking; a catalog
                         of 10 tools or fewer always returns its best candidates)
  --top K                how many tools --query keeps, default ${DEFAULT_TOP}
  --token T              bearer token sent with the manifest request (per-credential manifests);
                         without it, the tokens \`aicap login <origin>\` stored, if any
  --scopes a,b           scopes you hold: hide the tools none of them unlock
  --include-deprecated   keep deprecated tools
  --json                 print { tools, quarantined, warnings }; each tool also carries id, method and path
${manifestReadingUsage(23, { allowOrigin: true })}${cacheUsage(23)}  -h, --help             show this help

Exit status: 0 ok, 1 discovery or trust failed, 2 usage error or unreadable file.
${SHARED_STATE_ENVIRONMENT}`;

/** `aicap tools …`: discovery, trust and export through the public client and tools API. */
export const toolsCommand: CliCommand = {
  async run(argv: string[], processIo: CliIo): Promise<number> {
    const parsed = parseCommandLine(argv, processIo, {
      usage: USAGE,
      options: {
        format: { type: 'string', default: 'openai' },
        query: { type: 'string' },
        top: { type: 'string' },
        token: { type: 'string' },
        scopes: { type: 'string' },
        'include-deprecated': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        ...CACHE_FLAGS,
        ...MANIFEST_READING_FLAGS,
        ...TRUST_FLAGS,
      },
      positionals: { min: 1, max: 1, missing: 'the origin, manifest URL or file', expected: 'one source' },
    });
    if (typeof parsed === 'number') return parsed;
    const { values, positionals } = parsed;
    // A per-credential manifest may quote the token it was fetched with: never print it.
    const io = createRedactingIo(processIo, [values.token]);
    const source = positionals[0]!;
    const format = values.format as ExportFormat;
    if (!EXPORT_FORMATS.includes(format)) {
      io.error(`The \`--format\` option must be one of ${EXPORT_FORMATS.join(', ')}, got ${terminalSafeText(JSON.stringify(values.format))}.`);
      return 2;
    }
    const top = values.top === undefined ? DEFAULT_TOP : Number(values.top);
    if (!Number.isSafeInteger(top) || top < 1) {
      io.error(`The \`--top\` option must be a positive whole number, got ${JSON.stringify(values.top)}.`);
      return 2;
    }
    if (values.top !== undefined && values.query === undefined) {
      io.error('The `--top` option only applies with `--query`.');
      return 2;
    }
    const grantedScopes =
      values.scopes === undefined
        ? undefined
        : values.scopes
            .split(',')
            .map((scope) => scope.trim())
            .filter(Boolean);
    const credentials: OriginCredentials = values.token === undefined ? {} : { token: values.token };
    const logins = isUrlSource(source) ? storedLoginsFor(io, credentials) : undefined;
    if (typeof logins === 'number') return logins;
    const serviceOptions = {
      ...(Object.keys(credentials).length === 0 ? {} : { credentials }),
      ...(grantedScopes === undefined ? {} : { grantedScopes }),
    };

    const limits = readManifestReadingFlags(io, values);
    const clientOptions = limits === undefined ? undefined : clientOptionsFromFlags(io, limits, values['allow-origin']);
    if (limits === undefined || clientOptions === undefined) return 2;

    const shared = await openSharedState(io, { cache: cacheStoreOfFlags(io, values) });
    if (typeof shared === 'number') return shared;
    // Lists what is held back and why: the whole poisoning scan on discovery.
    const client = shared.createClient({ ...clientOptions, trust: { ...clientOptions.trust, scan: 'eager' } });
    try {
      let service: DiscoveredService;
      if (isUrlSource(source)) {
        service = await discoverWithStoredLogin(client, io, source, credentials, logins, grantedScopes);
      } else {
        let bytes: Uint8Array;
        try {
          bytes = await readManifestFile(source, limits.maxSizeInBytes);
        } catch (error) {
          io.error(cliErrorMessage(error));
          return 2;
        }
        service = await client.load(bytes, { ...serviceOptions, source, maxSizeInBytes: limits.maxSizeInBytes });
      }
      // The client's catalog, not a new one: its selection index is kept in the CLI's cache for the next run.
      const catalog = client.catalog({ includeDeprecated: values['include-deprecated'] });
      const selected: Array<{ tool: CatalogTool; score?: number }> = values.query === undefined ? catalog.tools.map((tool) => ({ tool })) : selectTools(catalog.tools, values.query, { limit: top });
      if (values.query !== undefined && selected.length === 0 && catalog.tools.length > 0) {
        io.warn(`No tool matched the query ${JSON.stringify(terminalSafeText(values.query))}: rephrase it with the API's words, or drop --query to list all ${catalog.tools.length} tools.`);
      }
      const exported = exportTools(
        selected.map((entry) => entry.tool),
        format,
      );
      const list: unknown[] = exported.tools;
      const warnings = [...catalog.warnings, ...exported.warnings, ...exported.dropped.map((entry) => `${entry.tool}: ${entry.pointer} ${entry.keyword}: ${entry.note}`)];
      if (values.json) {
        const tools = list.map((tool, index) => {
          const { tool: entry, score } = selected[index]!;
          return { id: entry.id, method: entry.method, path: entry.path, ...(score === undefined ? {} : { score }), ...(tool as object) };
        });
        io.stdout(terminalSafeJson({ tools, quarantined: catalog.withheld, warnings }));
      } else {
        io.stdout(terminalSafeJson(list));
      }
      report(io, service, catalog.withheld, { warnings, terms: catalog.terms }, list.length, format, values.query);
      return 0;
    } catch (error) {
      if (!AicapError.isInstance(error)) throw error;
      io.error(`${error.code}: ${cliErrorMessage(error)}`);
      return 1;
    } finally {
      await client.close();
    }
  },
};

function report(
  io: CliIo,
  service: DiscoveredService,
  withheld: Catalog['withheld'],
  { warnings, terms }: { warnings: readonly string[]; terms: readonly MessageTerm[] },
  count: number,
  format: string,
  query: string | undefined,
): void {
  for (const tool of withheld) {
    const findings = tool.findings.map((finding) => `${finding.code} at ${finding.pointer}: ${finding.message} — ${JSON.stringify(finding.text.slice(0, 200))}`).join('; ');
    io.warn(
      cliAdvice(
        `${tool.name} withheld (${tool.reason}): ${findings}`,
        tool.findings.flatMap((finding) => finding.terms ?? []),
      ),
    );
  }
  for (const warning of warnings) io.warn(cliAdvice(warning, terms));
  const what = query === undefined ? `${count} tool${count === 1 ? '' : 's'}` : `${count} best tool${count === 1 ? '' : 's'} for the query`;
  io.info(terminalSafeText(`${what} of ${service.manifest.service.name} (${service.origin}) as ${format}${withheld.length ? `, ${withheld.length} withheld` : ''}`));
}
