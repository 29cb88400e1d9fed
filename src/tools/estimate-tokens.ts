import { AicapError } from '../errors/aicap-error.js';

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
 * `approximate`. A value with no JSON text (`undefined`, a function, a cycle, a BigInt) throws
 * `AicapError` `INVALID_ARGUMENT`.
 * @example
 * const { tokens } = await estimateTokens(exportTools(catalog.tools, 'openai').tools);
 */
export async function estimateTokens(value: unknown): Promise<TokenEstimate> {
  const text = typeof value === 'string' ? value : jsonText(value);
  loading ??= import('gpt-tokenizer').then(
    (module) => module.countTokens as CountTokens,
    () => undefined,
  );
  const count = await loading;
  return count ? { tokens: count(text, PLAIN_TEXT), approximate: false } : { tokens: Math.ceil(text.length / 4), approximate: true };
}

/** The JSON text of a value, or the error that says why it has none (JSON.stringify throws a TypeError on a cycle or a BigInt and returns undefined for `undefined` or a function). */
function jsonText(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new AicapError(
      'INVALID_ARGUMENT',
      `estimateTokens counts the JSON text of a value, and this one has none: ${(error as Error).message.split('\n')[0]}. Pass the exported tools (exportTools(…).tools) or a string.`,
      { cause: error },
    );
  }
  if (text === undefined)
    throw new AicapError(
      'INVALID_ARGUMENT',
      `estimateTokens counts the JSON text of a value, and ${typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`} has none. Pass the exported tools (exportTools(…).tools) or a string.`,
    );
  return text;
}
