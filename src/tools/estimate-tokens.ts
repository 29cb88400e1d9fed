/** What {@link estimateTokens} returns. */
export interface TokenEstimate {
  /** Tokens of the JSON text of the value (`o200k_base`, the GPT-4o family encoding). */
  tokens: number;
  /** True when gpt-tokenizer is not installed and the count is characters / 4. */
  approximate: boolean;
}

type CountTokens = (text: string, options?: { disallowedSpecial?: Set<string> }) => number;
// Tool texts come from the network: a description containing `<|im_end|>` is text to count, not a
// special token (gpt-tokenizer throws on special tokens by default).
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };
let loading: Promise<CountTokens | undefined> | undefined;

/**
 * Counts the tokens an export costs in a prompt, as JSON text. gpt-tokenizer (an optional peer
 * dependency) is loaded on first use only; without it the estimate is characters / 4, flagged
 * `approximate`.
 * @example
 * const { tokens } = await estimateTokens(exportTools(catalog.tools, 'openai').tools);
 */
export async function estimateTokens(value: unknown): Promise<TokenEstimate> {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  loading ??= import('gpt-tokenizer').then(
    (module) => module.countTokens as CountTokens,
    () => undefined,
  );
  const count = await loading;
  return count ? { tokens: count(text, PLAIN_TEXT), approximate: false } : { tokens: Math.ceil(text.length / 4), approximate: true };
}
