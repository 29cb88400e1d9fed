import { isRecord } from '../../internal/is-record.js';
import { mediaTypeOf } from '../../internal/parse-media-type.js';
import { declaredLengthExceeds, readCappedBytes } from '../../internal/read-capped-bytes.js';
import type { FetchFunction } from '../shapes/client-types.js';
import { parseLinkHeader } from '../../internal/http/parse-link-header.js';
import { AI_CATALOG_MEDIA_TYPE, readAiCatalog } from '../discover/read-ai-catalog.js';
import type { AddCheck } from './check-result.js';

const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';
const CARD_SCHEMA_PREFIX = 'https://static.modelcontextprotocol.io/schemas/';
const CATALOG_PATH = '/.well-known/ai-catalog.json';
const DEFAULT_MCP_PATH = '/mcp';
// Bounds: a hostile catalog cannot make the check fetch without end.
const MAX_CARD_CANDIDATES = 5;
const MAX_CATALOG_DEPTH = 2;
const MAX_BODY_IN_BYTES = 262_144;

/** A Server Card found for the origin. */
interface FoundCard {
  url: string | undefined;
  card: Record<string, unknown>;
}

/**
 * Looks for an MCP server where no manifest was found: a Server Card (at `<target>/server-card`, the
 * target itself, an AI Catalog entry of the card type, nested catalogs included, or a `Link`
 * `rel="mcp-server-card"` on the origin), then a JSON-RPC endpoint (the card's remote, or the
 * target) that answers an `initialize` request. Reports what it found, pointing at the card, so the
 * user learns the origin is an MCP server rather than a missing manifest. Only GET and one
 * `initialize` POST are sent (no tool is called).
 * @internal
 */
export async function detectMcpServer(target: string, fetch: FetchFunction, add: AddCheck): Promise<boolean> {
  const targetUrl = new URL(target);
  const found = await findServerCard(targetUrl, fetch);
  const remote = found ? firstRemote(found.card) : undefined;
  // A bare origin is what people type; MCP servers conventionally answer at /mcp (the bridge does).
  const endpoint =
    remote ?? (targetUrl.pathname.length > 1 && !targetUrl.pathname.startsWith('/.well-known/') ? targetUrl.href.replace(/\/server-card$/, '') : new URL(DEFAULT_MCP_PATH, targetUrl.origin).href);
  const answered = endpoint ? await probeJsonRpc(endpoint, fetch) : undefined;
  if (!found && !answered) return false;
  if (found) {
    const missing = ['$schema', 'name', 'version', 'description'].filter((member) => typeof found.card[member] !== 'string');
    const where = found.url ?? 'inline in the AI Catalog';
    add(
      'mcp.server_card',
      missing.length === 0 ? 'pass' : 'warn',
      `MCP Server Card ${where}: "${String(found.card['name'] ?? '?')}" ${String(found.card['version'] ?? '')}${missing.length > 0 ? `; missing required ${missing.join(', ')}` : ''}`.trim(),
    );
  }
  if (endpoint)
    add(
      'mcp.endpoint',
      answered ? 'pass' : 'warn',
      answered ? `${endpoint} answers MCP JSON-RPC (${answered})` : `${endpoint}${remote ? " (the card's remote)" : ''} did not answer an MCP initialize request`,
    );
  add(
    'mcp.detected',
    'warn',
    `This origin serves an MCP server${found?.url ? ` (Server Card at ${found.url})` : ''}, not an AI capabilities manifest: connect an MCP host to ${endpoint ?? 'the endpoint its card names'}. To offer both, also serve /.well-known/ai-capabilities.`,
  );
  return true;
}

async function findServerCard(target: URL, fetch: FetchFunction): Promise<FoundCard | undefined> {
  const candidates: string[] = [];
  if (target.pathname.length > 1 && !target.pathname.startsWith('/.well-known/')) {
    candidates.push(target.pathname.endsWith('/server-card') ? target.href : `${target.href.replace(/\/$/, '')}/server-card`);
  }
  const fromCatalog = await cardsFromCatalog(new URL(CATALOG_PATH, target.origin).href, fetch, 0);
  const inline = fromCatalog.find((entry) => entry.card !== undefined);
  if (inline?.card) return { url: undefined, card: inline.card };
  candidates.push(...fromCatalog.flatMap((entry) => (entry.url ? [entry.url] : [])));
  candidates.push(...(await linkedCards(target.origin, fetch)));
  for (const url of [...new Set(candidates)].slice(0, MAX_CARD_CANDIDATES)) {
    const card = await getJson(url, fetch, SERVER_CARD_MEDIA_TYPE);
    if (card && (card.mediaType === SERVER_CARD_MEDIA_TYPE || String(card.body['$schema'] ?? '').startsWith(CARD_SCHEMA_PREFIX))) return { url, card: card.body };
  }
  return undefined;
}

async function cardsFromCatalog(url: string, fetch: FetchFunction, depth: number): Promise<Array<{ url?: string; card?: Record<string, unknown> }>> {
  const answer = await getJson(url, fetch, AI_CATALOG_MEDIA_TYPE);
  return answer ? cardsIn(answer.body, url, fetch, depth) : [];
}

async function cardsIn(document: unknown, catalogUrl: string, fetch: FetchFunction, depth: number): Promise<Array<{ url?: string; card?: Record<string, unknown> }>> {
  const found: Array<{ url?: string; card?: Record<string, unknown> }> = [];
  for (const entry of readAiCatalog(document, catalogUrl).entries) {
    if (entry.type === SERVER_CARD_MEDIA_TYPE) found.push(entry.url ? { url: entry.url } : { card: entry.data! });
    else if (entry.type === AI_CATALOG_MEDIA_TYPE && depth + 1 < MAX_CATALOG_DEPTH) {
      found.push(...(entry.url ? await cardsFromCatalog(entry.url, fetch, depth + 1) : await cardsIn(entry.data, catalogUrl, fetch, depth + 1)));
    }
  }
  return found;
}

async function linkedCards(origin: string, fetch: FetchFunction): Promise<string[]> {
  try {
    const answer = await fetch(`${origin}/`, { headers: { accept: '*/*' } });
    await answer.body?.cancel();
    return parseLinkHeader(answer.headers.get('link') ?? '')
      .filter((link) => link.relations.includes('mcp-server-card'))
      .flatMap((link) => {
        try {
          return [new URL(link.target, `${origin}/`).href];
        } catch {
          return [];
        }
      });
  } catch {
    return [];
  }
}

async function getJson(url: string, fetch: FetchFunction, mediaType: string): Promise<{ mediaType: string; body: Record<string, unknown> } | undefined> {
  try {
    const answer = await fetch(url, { headers: { accept: `${mediaType}, application/json;q=0.9` } });
    const text = answer.status === 200 ? await readCapped(answer) : (await answer.body?.cancel(), undefined);
    if (text === undefined) return undefined;
    const body = JSON.parse(text) as unknown;
    return isRecord(body) ? { mediaType: mediaTypeOf(answer.headers.get('content-type')), body } : undefined;
  } catch {
    return undefined;
  }
}

async function probeJsonRpc(endpoint: string, fetch: FetchFunction): Promise<string | undefined> {
  try {
    const answer = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'aicap-check', version: '0.1.0' } } }),
    });
    const text = await readCapped(answer);
    if (text === undefined || !text.includes('"jsonrpc"')) return undefined;
    const version = /"protocolVersion"\s*:\s*"([^"]{1,40})"/.exec(text)?.[1];
    const name = /"serverInfo"\s*:\s*\{[^}]*"name"\s*:\s*"([^"]{1,100})"/.exec(text)?.[1];
    return [`HTTP ${answer.status}`, version ? `protocol ${version}` : undefined, name ? `server "${name}"` : undefined].filter(Boolean).join(', ');
  } catch {
    return undefined;
  }
}

async function readCapped(answer: Response): Promise<string | undefined> {
  if (declaredLengthExceeds(answer.headers, MAX_BODY_IN_BYTES)) {
    await answer.body?.cancel();
    return undefined;
  }
  const { bytes, exceeded } = await readCappedBytes(answer.body, MAX_BODY_IN_BYTES);
  return exceeded ? undefined : new TextDecoder().decode(bytes);
}

function firstRemote(card: Record<string, unknown>): string | undefined {
  const remotes = card['remotes'];
  if (!Array.isArray(remotes)) return undefined;
  const remote = remotes.find((candidate): candidate is Record<string, unknown> => isRecord(candidate) && typeof candidate['url'] === 'string' && /^https?:\/\//.test(candidate['url']));
  return remote ? (remote['url'] as string) : undefined;
}
