/** Inputs of {@link formatModelText}. */
export interface ModelTextInput {
  /** Tool the text comes from. */
  toolId: string;
  /** The untrusted content (a response body or an error body). */
  content: string | undefined;
  /** A trusted lead-in written by aicap or declared by the producer (the error's user message). */
  notice?: string;
  /** Longest content kept, in characters. */
  maxLength: number;
}

/**
 * Wraps untrusted response text for a model: delimited so the model (and the orchestrator's prompt)
 * can tell data from instructions, with any closing delimiter inside the content neutralised so the
 * API cannot break out of it, and cut at `maxLength`.
 */
export function formatModelText(input: ModelTextInput): { text: string; truncated: boolean } {
  let content = input.content ?? '';
  let truncated = false;
  if (content.length > input.maxLength) {
    const omitted = content.length - input.maxLength;
    content = `${content.slice(0, input.maxLength)}\n[… truncated: ${omitted} more characters]`;
    truncated = true;
  }
  // Most bodies have no `<` at all, which `includes` tells faster than the regular expression.
  if (content.includes('<')) content = content.replace(/<(\/?)untrusted-data/gi, '<$1untrusted-data-escaped');
  const notice = input.notice === undefined ? '' : `${input.notice}\n`;
  const body = content === '' ? '' : `<untrusted-data tool="${input.toolId}">\n${content}\n</untrusted-data>`;
  return { text: `${notice}${body}`, truncated };
}
