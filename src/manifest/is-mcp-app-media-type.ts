/** The media type of an MCP Apps page (SEP-1865): HTML a host renders in a sandboxed frame. */
export const MCP_APP_MEDIA_TYPE = 'text/html;profile=mcp-app';

/**
 * Whether a resource's `mime_type` is {@link MCP_APP_MEDIA_TYPE}: compared without case and without
 * the spaces a media type may carry around its `;` and `=`.
 */
export function isMcpAppMediaType(mimeType: unknown): boolean {
  return typeof mimeType === 'string' && mimeType.replace(/\s+/g, '').toLowerCase() === MCP_APP_MEDIA_TYPE;
}
