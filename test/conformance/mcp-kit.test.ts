import { readFileSync } from 'node:fs';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { runMcpScenario, type BridgeMessageEdit, type McpScenario } from './run-mcp-scenario.js';

const scenarios = (JSON.parse(readFileSync(new URL('../../conformance/mcp/bridge.json', import.meta.url), 'utf8')) as { scenarios: McpScenario[] }).scenarios;

describe('the MCP scenarios of the conformance kit, against aicap/mcp', () => {
  it('covers the MUST of Appendix A.1 with more than one manifest', () => {
    expect(scenarios.filter((scenario) => scenario.spec_section === 'A.1' && scenario.level === 'MUST').length).toBeGreaterThanOrEqual(3);
  });

  it.each(scenarios.map((scenario) => [scenario.id, scenario] as const))('%s', async (_id, scenario) => {
    const outcome = await runMcpScenario(scenario);
    expect(outcome, outcome.message).toEqual({ outcome: 'pass', message: scenario.description });
  });
});

type Csp = { connectDomains?: string[]; resourceDomains?: string[] };

/** A bridge whose every `_meta.ui.csp` passes through `edit` on its way to the host. */
function editCsp(edit: (csp: Csp, origin: string) => void): BridgeMessageEdit {
  return (message, { origin }) => {
    const visit = (node: unknown): void => {
      if (node === null || typeof node !== 'object') return;
      const csp = (node as { _meta?: { ui?: { csp?: Csp } } })._meta?.ui?.csp;
      if (csp) edit(csp, origin);
      for (const child of Object.values(node)) visit(child);
    };
    visit(message);
    return message;
  };
}

/** A bridge that serves no MCP Apps page: its page resources are left out of `resources/list`. */
const withoutPages: BridgeMessageEdit = (message) => {
  const result = (message as { result?: { resources?: Array<{ mimeType?: string }> } }).result;
  if (result?.resources) result.resources = result.resources.filter((resource) => resource.mimeType !== 'text/html;profile=mcp-app');
  return message as JSONRPCMessage;
};

describe('the MCP scenarios catch a bridge broken on purpose', () => {
  const outcomes = async (edit: BridgeMessageEdit): Promise<Record<string, string>> => {
    const found: Record<string, string> = {};
    for (const scenario of scenarios) found[scenario.id] = (await runMcpScenario(scenario, edit)).outcome;
    return found;
  };

  it('a bridge that opens every page to one more origin fails every case, in the answer that carries it', async () => {
    const widened = editCsp((csp) => (csp.connectDomains = [...(csp.connectDomains ?? []), 'https://unlisted.example']));
    expect(await outcomes(widened)).toEqual({ 'mcp.ui.page_origins_listed': 'fail', 'mcp.ui.no_list_no_origin': 'fail', 'mcp.ui.resource_origin_not_connect': 'fail' });
    const outcome = await runMcpScenario(scenarios[0]!, widened);
    expect(outcome.message).toBe('request 2 (resources/list): the bridge declares origins the manifest does not list in ui: /resources/0/_meta/ui/csp/connectDomains has "https://unlisted.example"');
  });

  it('a bridge that changes only what resources/read returns is caught there', async () => {
    const onRead = editCsp((csp) => (csp.resourceDomains = ['https://unlisted.example']));
    const readOnly: BridgeMessageEdit = (message, scenario) => ('result' in message && 'contents' in (message.result as object) ? onRead(message, scenario) : message);
    const outcome = await runMcpScenario(scenarios[0]!, readOnly);
    expect(outcome).toEqual({
      outcome: 'fail',
      message: 'request 3 (resources/read): the bridge declares origins the manifest does not list in ui: /contents/0/_meta/ui/csp/resourceDomains has "https://unlisted.example"',
    });
  });

  it('a bridge that lets a page with no list reach its own API fails the cases without a connect list', async () => {
    const ownOrigin = editCsp((csp, origin) => (csp.connectDomains = csp.connectDomains?.length ? csp.connectDomains : [origin]));
    expect(await outcomes(ownOrigin)).toEqual({ 'mcp.ui.page_origins_listed': 'pass', 'mcp.ui.no_list_no_origin': 'fail', 'mcp.ui.resource_origin_not_connect': 'fail' });
  });

  it('a bridge that lets a page connect wherever it may load from fails the case that separates the two', async () => {
    const merged = editCsp((csp) => (csp.connectDomains = [...new Set([...(csp.connectDomains ?? []), ...(csp.resourceDomains ?? [])])]));
    expect(await outcomes(merged)).toEqual({ 'mcp.ui.page_origins_listed': 'pass', 'mcp.ui.no_list_no_origin': 'pass', 'mcp.ui.resource_origin_not_connect': 'fail' });
  });

  it('a bridge that offers no page is not applicable, rather than passing without a page to check', async () => {
    expect(await outcomes(withoutPages)).toEqual({ 'mcp.ui.page_origins_listed': 'skip', 'mcp.ui.no_list_no_origin': 'skip', 'mcp.ui.resource_origin_not_connect': 'skip' });
  });
});
