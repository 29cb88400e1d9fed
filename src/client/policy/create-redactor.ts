/** The text that replaces every redacted value. */
export const REDACTED = '[REDACTED]';

// Shorter secrets would match ordinary text ("1", "ok") and make every message unreadable; a value
// this short is not a meaningful secret and is still removed from arguments by name.
const MIN_SECRET_LENGTH = 4;
// Characters that `encodeURIComponent` and form encoding both leave as they are.
const UNENCODED = /^[\w.-]*$/;

/** Options of {@link createRedactor}. */
export interface RedactorOptions {
  /** Parameter names whose values are replaced wherever they appear (any depth, case-insensitive). */
  parameterNames?: Iterable<string>;
  /** Literal secret values (tokens, keys, redacted argument values) removed from any text. */
  secrets?: Iterable<string>;
}

/** Removes secrets from what aicap logs, audits, throws or shows to a model. */
export interface Redactor {
  /** A deep copy of `value` with every redacted parameter's value replaced by `[REDACTED]`. */
  arguments(value: Record<string, unknown>): Record<string, unknown>;
  /** `text` with every known secret (and its URL-encoded form) replaced by `[REDACTED]`. */
  text(text: string): string;
  /** Learns one more secret value (for example a freshly issued access token). */
  addSecret(secret: string): void;
  /** Adds parameter names to redact (from the policy, once the tool is known). */
  addParameterNames(names: Iterable<string>): void;
  /** True when the parameter name is redacted. */
  isRedactedName(name: string): boolean;
}

/**
 * Creates a redactor. Argument values under redacted names are also learned as secrets, so that the
 * same value is removed from URLs, error messages and response text where it appears unnamed.
 */
export function createRedactor(options: RedactorOptions = {}): Redactor {
  const names = new Set<string>();
  for (const name of options.parameterNames ?? []) names.add(name.toLowerCase());
  const secrets = new Set<string>();
  const addSecret = (secret: string): void => {
    if (secret.length < MIN_SECRET_LENGTH) return;
    secrets.add(secret);
    // Most tokens are plain (letters, digits, `-`, `_`, `.`), which neither encoding changes: skip the
    // work (a redactor is made per call and learns the credentials each time).
    if (UNENCODED.test(secret)) return;
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) secrets.add(encoded);
    const formEncoded = new URLSearchParams({ s: secret }).toString().slice(2);
    if (formEncoded !== secret) secrets.add(formEncoded);
  };
  for (const secret of options.secrets ?? []) addSecret(secret);
  const isRedactedName = (name: string): boolean => names.has(name.toLowerCase());

  const copy = (value: unknown, depth: number): unknown => {
    if (depth > 64 || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1));
    const result: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (isRedactedName(key)) {
        learn(child, 0);
        result[key] = REDACTED;
      } else {
        result[key] = copy(child, depth + 1);
      }
    }
    return result;
  };
  const learn = (value: unknown, depth: number): void => {
    if (typeof value === 'string') addSecret(value);
    else if (typeof value === 'number' || typeof value === 'bigint') addSecret(String(value));
    else if (value !== null && typeof value === 'object' && depth < 16) for (const child of Object.values(value)) learn(child, depth + 1);
  };

  return {
    arguments: (value) => copy(value, 0) as Record<string, unknown>,
    text(text) {
      let result = text;
      // Longest first, so that a secret containing another is replaced whole.
      for (const secret of [...secrets].sort((left, right) => right.length - left.length)) {
        if (result.includes(secret)) result = result.split(secret).join(REDACTED);
      }
      return result;
    },
    addSecret,
    addParameterNames(added) {
      for (const name of added) names.add(name.toLowerCase());
    },
    isRedactedName,
  };
}
