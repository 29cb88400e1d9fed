import { AicapError } from '../errors/aicap-error.js';
import { checkToolList } from './check-tool-list.js';
import type { CatalogTool } from './create-catalog.js';
import type { DroppedKeyword } from './schema-reduction.js';
import { scanToolsForModel } from './scan-tools-for-model.js';
import { toAnthropicTools, type AnthropicTool } from './to-anthropic-tools.js';
import { toGeminiDeclarations, type GeminiFunctionDeclaration } from './to-gemini-declarations.js';
import { toMCPTools, type MCPTool } from './to-mcp-tools.js';
import { toOpenAIChatTools, toOpenAIResponsesTools, type OpenAIChatTool, type OpenAIResponsesTool } from './to-openai-tools.js';

/**
 * Target formats of {@link exportTools}. For the Vercel AI SDK, OpenAI Agents and LangChain, use the
 * executable tools of `aicap/ai-sdk`, `aicap/openai-agents` and `aicap/langchain` instead.
 */
export type ExportFormat = 'openai' | 'openai-strict' | 'openai-responses' | 'openai-responses-strict' | 'anthropic' | 'anthropic-strict' | 'gemini' | 'gemini-json-schema' | 'mcp';

/** Every format name, for CLIs and validation. */
export const EXPORT_FORMATS: readonly ExportFormat[] = [
  'openai',
  'openai-strict',
  'openai-responses',
  'openai-responses-strict',
  'anthropic',
  'anthropic-strict',
  'gemini',
  'gemini-json-schema',
  'mcp',
];

/** The tools of each format. */
export interface ExportedToolsByFormat {
  openai: OpenAIChatTool[];
  'openai-strict': OpenAIChatTool[];
  'openai-responses': OpenAIResponsesTool[];
  'openai-responses-strict': OpenAIResponsesTool[];
  anthropic: AnthropicTool[];
  'anthropic-strict': AnthropicTool[];
  gemini: GeminiFunctionDeclaration[];
  'gemini-json-schema': GeminiFunctionDeclaration[];
  mcp: MCPTool[];
}

/** What {@link exportTools} returns. */
export interface ExportedTools<Format extends ExportFormat = ExportFormat> {
  /** The format. */
  format: Format;
  /** The tools in that format. */
  tools: ExportedToolsByFormat[Format];
  /** Schema keywords removed or changed to fit the format (Gemini, strict modes), renamed properties included. */
  dropped: DroppedKeyword[];
  /** Tools that could not be converted faithfully (e.g. exported without strict mode), and tools the poisoning scan held back. */
  warnings: string[];
}

/**
 * Converts catalog tools to one LLM API's tool format. The order is kept (pass selected tools to get
 * them best first). Every tool passes the poisoning scan first (`scanToolsForModel`, once per tool
 * version): one a high-severity finding quarantines is left out and named in `warnings`. Map the model's arguments back with `toManifestArguments(format, tool, args)`
 * before `client.call`: strict formats send `null`s and Gemini renames some parameters.
 * @example
 * const { tools } = exportTools(client.catalog().tools, 'anthropic');
 */
export function exportTools<Format extends ExportFormat>(tools: readonly CatalogTool[], format: Format): ExportedTools<Format> {
  const allowed = scanToolsForModel(checkToolList(tools, 'exportTools'));
  const converted = convert(allowed, format);
  const held =
    allowed.length === tools.length ? [] : tools.filter((tool) => !allowed.includes(tool)).map((tool) => `${tool.name}: left out, quarantined by the poisoning scan (see client.catalog().withheld)`);
  return { format, tools: converted.tools as ExportedToolsByFormat[Format], dropped: converted.dropped ?? [], warnings: [...held, ...(converted.warnings ?? [])] };
}

function convert(tools: readonly CatalogTool[], format: ExportFormat): { tools: unknown; dropped?: DroppedKeyword[]; warnings?: string[] } {
  switch (format) {
    case 'openai':
      return toOpenAIChatTools(tools);
    case 'openai-strict':
      return toOpenAIChatTools(tools, { strict: true });
    case 'openai-responses':
      return toOpenAIResponsesTools(tools);
    case 'openai-responses-strict':
      return toOpenAIResponsesTools(tools, { strict: true });
    case 'anthropic':
      return toAnthropicTools(tools);
    case 'anthropic-strict':
      return toAnthropicTools(tools, { strict: true });
    case 'gemini':
      return toGeminiDeclarations(tools);
    case 'gemini-json-schema':
      return toGeminiDeclarations(tools, { jsonSchema: true });
    case 'mcp':
      return toMCPTools(tools);
    default:
      throw new AicapError(
        'INVALID_ARGUMENT',
        `Unknown export format ${JSON.stringify(format)}; use one of ${EXPORT_FORMATS.join(', ')}${String(format) === 'ai-sdk' ? ' (for the Vercel AI SDK, use createAISDKTools from aicap/ai-sdk)' : ''}.`,
      );
  }
}
