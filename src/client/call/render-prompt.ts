import type { Prompt } from '../../manifest/manifest-v0.js';
import { InvalidArgumentsError } from './invalid-arguments-error.js';
import { validateToolArguments } from './validate-tool-arguments.js';

/** A prompt template filled in. */
export interface RenderedPrompt {
  /** Prompt id. */
  id: string;
  /** What the prompt is for. */
  description: string;
  /** The template with every `{{name}}` replaced. */
  text: string;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_-]*)\s*\}\}/g;

/**
 * Fills a prompt template: arguments are validated against the prompt's parameters first (the same
 * validator as tool calls), then each `{{name}}` is replaced in a single pass, so a value that itself
 * contains `{{…}}` is never expanded again. A placeholder without a value is an error, not an empty
 * string. `owner` is the manifest the prompt came from: its compiled validator lives as long as it.
 * Throws `InvalidArgumentsError`.
 */
export function renderPrompt(prompt: Prompt, args: Record<string, unknown>, owner: object = prompt): RenderedPrompt {
  validateToolArguments(prompt, args, owner);
  const missing = new Set<string>();
  const text = prompt.template.replace(PLACEHOLDER, (_match, name: string) => {
    const value = args[name] ?? prompt.parameters?.[name]?.default;
    if (value === undefined) {
      missing.add(name);
      return '';
    }
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
  if (missing.size > 0) {
    throw new InvalidArgumentsError(
      prompt.id,
      [...missing].map((name) => ({ pointer: `/${name}`, parameter: name, rule: 'required', message: 'is used by the template and has no value' })),
    );
  }
  return { id: prompt.id, description: prompt.description, text };
}
