/**
 * `aicap/tools`: turn discovered manifests into the tool lists LLM APIs expect. The catalog filters by
 * granted scopes, deprecation and trust; names are unique and valid for every target; exports cover
 * OpenAI (chat completions, Responses, strict mode), Anthropic (and strict tool use), Gemini (Schema
 * subset or full JSON Schema) and MCP; arguments map back to the manifest's parameters;
 * selection ranks tools for a request; token estimates size an export.
 *
 * This file is the complete public surface of the entry. Every export is chosen by hand.
 * @module
 */

export { createCatalog } from './create-catalog.js';
export type { Catalog, CatalogFinding, CatalogOptions, CatalogService, CatalogTool, WithheldTool } from './create-catalog.js';
export { sanitizeToolName, assignToolNames, TOOL_NAME_PATTERN } from './sanitize-tool-name.js';
export { renderToolDescription } from './render-tool-description.js';
export { toolInputSchema } from './tool-input-schema.js';
export type { ToolInputSchema } from './tool-input-schema.js';
export { exportTools, EXPORT_FORMATS } from './export-tools.js';
export type { ExportFormat, ExportedTools, ExportedToolsByFormat } from './export-tools.js';
export type { DroppedKeyword, SchemaNode } from './schema-reduction.js';
export { toStrictSchema } from './to-openai-tools.js';
export type { OpenAIChatTool, OpenAIResponsesTool } from './to-openai-tools.js';
export { toAnthropicStrictSchema } from './to-anthropic-tools.js';
export type { AnthropicTool } from './to-anthropic-tools.js';
export type { GeminiFunctionDeclaration } from './to-gemini-declarations.js';
export { geminiPropertyNames, GEMINI_PROPERTY_NAME } from './gemini-property-names.js';
export { toManifestArguments } from './to-manifest-arguments.js';
export type { MCPTool } from './to-mcp-tools.js';
export { selectTools } from './select-tools.js';
export type { SelectToolsOptions, SelectedTool } from './select-tools.js';
export { serializeSelectionIndex, restoreSelectionIndex } from './selection/serialize-selection-index.js';
export type { SerializedSelectionIndex } from './selection/serialize-selection-index.js';
export { selectToolsWithEmbeddings } from './selection/select-tools-with-embeddings.js';
export type { EmbedTexts, SelectToolsWithEmbeddingsOptions } from './selection/select-tools-with-embeddings.js';
export { createTransformersEmbedder } from './selection/create-transformers-embedder.js';
export type { TransformersEmbedderOptions } from './selection/create-transformers-embedder.js';
export { createToolSearch } from './create-tool-search.js';
export type { ToolSearch, ToolSearchOptions, ToolSearchResult } from './create-tool-search.js';
export { estimateTokens } from './estimate-tokens.js';
export type { TokenEstimate } from './estimate-tokens.js';
export { scanToolsForModel } from './scan-tools-for-model.js';
