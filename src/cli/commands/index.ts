import type { CliCommandEntry } from '../cli-io.js';

/**
 * Every CLI command by name, with its `--help` line. Each lives in its own module beside this file,
 * imported only when that command runs, so `aicap --help`, `--version` and each command load no other
 * command's dependencies. Add a line here when adding one (keep the list alphabetical).
 */
export const commands: Record<string, CliCommandEntry> = {
  call: { summary: 'call one tool of an API and print the result envelope', load: async () => (await import('./call.js')).callCommand },
  check: { summary: 'check a live manifest chain: manifest, caching, CORS, secrets, endpoints, OAuth metadata', load: async () => (await import('./check.js')).checkCommand },
  demo: { summary: 'run a narrated orchestrator session against the embedded Payments API', load: async () => (await import('./demo.js')).demoCommand },
  diff: { summary: 'compare two manifests: breaking, trust-sensitive and non-breaking changes', load: async () => (await import('./diff.js')).diffCommand },
  generate: { summary: 'generate a manifest from an OpenAPI description (--check for CI)', load: async () => (await import('./generate.js')).generateCommand },
  inspect: { summary: 'open a local web inspector for a manifest (tools, trust, check, try calls)', load: async () => (await import('./inspect.js')).inspectCommand, serves: true },
  login: { summary: 'log in to an API as you (OAuth in the browser or with a device code)', load: async () => (await import('./login.js')).loginCommand },
  logout: { summary: 'revoke and delete the tokens `aicap login` stored for an API', load: async () => (await import('./logout.js')).logoutCommand },
  mcp: { summary: 'serve manifest APIs to MCP hosts over stdio or Streamable HTTP', load: async () => (await import('./mcp.js')).mcpCommand, serves: true },
  serve: { summary: 'serve a manifest file at /.well-known/ai-capabilities (preview and testing)', load: async () => (await import('./serve.js')).serveCommand, serves: true },
  tools: { summary: 'print a manifest’s tools for an LLM (OpenAI, Anthropic, Gemini, AI SDK, MCP)', load: async () => (await import('./tools.js')).toolsCommand },
  validate: { summary: 'check a manifest file, origin or URL against the spec', load: async () => (await import('./validate.js')).validateCommand },
};
