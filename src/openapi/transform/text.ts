/** Longest text the manifest schema accepts for descriptions and guidance. */
export const MAX_TEXT_LENGTH = 8192;

/** Trims text and cuts it (with an ellipsis) to what the manifest schema accepts. @internal */
export function clampText(text: string, maxLength: number = MAX_TEXT_LENGTH): string {
  const trimmed = text.trim();
  return trimmed.length <= maxLength ? trimmed : `${trimmed.slice(0, maxLength - 1)}…`;
}
