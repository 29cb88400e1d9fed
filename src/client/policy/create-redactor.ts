/** The text that replaces every redacted value. */
export const REDACTED = '[REDACTED]';

// Shorter values would match ordinary text ("1", "ok") and make every message unreadable: a short
// value of a redacted parameter is removed only where it follows its parameter's name
// (`"card_cvc": "123"`, `card_cvc=123`), not everywhere.
const MIN_SECRET_LENGTH = 4;
// Audit copies keep this much structure; anything deeper is replaced whole, so no value escapes
// redaction by being nested deeply.
const MAX_COPY_DEPTH = 64;
// What continues an identifier around a redacted value (letters, digits, `_`, `-`): a value with one
// of these right before or after it is part of another identifier, which is left whole.
const IDENTIFIER_CHARACTER = /^[\p{L}\p{N}_-]$/u;
// Characters that `encodeURIComponent` and form encoding both leave as they are.
const UNENCODED = /^[\w.-]*$/;
// A surrogate outside a pair (a `u` pattern reads a pair as one code point, not as `Cs`).
const LONE_SURROGATE = /\p{Cs}/u;

/** Options of {@link createRedactor}. */
export interface RedactorOptions {
  /** Parameter names whose values are replaced wherever they appear (any depth, case-insensitive). */
  parameterNames?: Iterable<string>;
  /** Literal secret values (tokens, keys, redacted argument values) removed from any text. */
  secrets?: Iterable<string>;
}

/** Removes secrets from what aicap logs, audits, throws or shows to a model. */
export interface Redactor {
  /** A deep copy of `value` with every redacted parameter's value replaced by `[REDACTED]` (and anything nested deeper than 64 levels replaced whole). */
  arguments(value: Readonly<Record<string, unknown>>): Record<string, unknown>;
  /**
  Response data with every credential (the secrets given to the redactor or added with
  `addSecret`) replaced by `[REDACTED]` inside strings: a server echoing a token does not put it in
  the envelope. Values of redacted parameters stay: `redact_from_logs` keeps them out of logs,
  audit and model text, not out of the data the application asked for. Returns `value` itself when
  there is nothing to redact. `source`, the text `value` was decoded from (the response body), makes
  the check a substring search of that text instead of a serialisation of the data.
  */
  data(value: unknown, source?: string): unknown;
  /**
  `text` with every credential (and its URL-encoded forms) replaced by `[REDACTED]` wherever it
  appears, and every value of a redacted parameter replaced where it stands as a token of its own (no
  letter, digit, `_` or `-` right before or after it): an identifier that embeds such a value, like
  `txn_12345_0005`, stays whole.
  */
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
  // Credentials, and (separately) values learned from redacted arguments: text loses both, data only credentials.
  const secrets = new Set<string>();
  const learned = new Set<string>();
  // Short values of redacted parameters, by the name they were given under.
  const shortValues = new Map<string, Set<string>>();
  const addTo = (target: Set<string>, secret: string): void => {
    if (secret.length < MIN_SECRET_LENGTH) return;
    target.add(secret);
    // Most tokens are plain (letters, digits, `-`, `_`, `.`), which neither encoding changes: skip the
    // work (a redactor is made per call and learns the credentials each time).
    // A lone surrogate has no URL encoding (`encodeURIComponent` throws): such a value is only ever
    // found as itself.
    if (UNENCODED.test(secret) || LONE_SURROGATE.test(secret)) return;
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) target.add(encoded);
    const formEncoded = new URLSearchParams({ s: secret }).toString().slice(2);
    if (formEncoded !== secret) target.add(formEncoded);
  };
  const addSecret = (secret: string): void => addTo(secrets, secret);
  for (const secret of options.secrets ?? []) addSecret(secret);
  const isRedactedName = (name: string): boolean => names.has(name.toLowerCase());
  const learnValue = (name: string, value: string): void => {
    if (value === '') return;
    if (value.length >= MIN_SECRET_LENGTH) return addTo(learned, value);
    const known = shortValues.get(name) ?? new Set<string>();
    known.add(value);
    shortValues.set(name, known);
  };
  /** Learns every scalar under a redacted name, however deep (a loop: no depth cutoff). */
  const learn = (name: string, value: unknown): void => {
    const pending: unknown[] = [value];
    for (let visited = 0; pending.length > 0 && visited < 100_000; visited++) {
      const current = pending.pop();
      if (typeof current === 'string') learnValue(name, current);
      else if (typeof current === 'number' || typeof current === 'bigint' || typeof current === 'boolean') learnValue(name, String(current));
      else if (current !== null && typeof current === 'object') pending.push(...Object.values(current));
    }
  };

  const copy = (value: unknown, depth: number): unknown => {
    if (value === null || typeof value !== 'object') return value;
    if (depth >= MAX_COPY_DEPTH) {
      for (const [key, child] of deepEntries(value)) if (isRedactedName(key)) learn(key, child);
      return REDACTED;
    }
    if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1));
    const result: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (isRedactedName(key)) {
        learn(key, child);
        result[key] = REDACTED;
      } else {
        result[key] = copy(child, depth + 1);
      }
    }
    return result;
  };
  const replaceAll = (input: string, values: Iterable<string>): string => {
    let result = input;
    // Longest first, so that a secret containing another is replaced whole.
    for (const secret of [...values].sort((left, right) => right.length - left.length)) {
      if (result.includes(secret)) result = result.split(secret).join(REDACTED);
    }
    return result;
  };
  // A redacted value counts only as a token of its own: `12345` in `/accounts/12345` or `"12345"`,
  // never inside `txn_12345_0005`, which is another identifier the model must be able to quote and
  // pass on. Credentials (above) go wherever they appear: a token has no business in any identifier.
  const replaceTokens = (input: string, values: Iterable<string>): string => {
    let result = input;
    for (const value of [...values].sort((left, right) => right.length - left.length)) {
      result = replaceStandalone(result, value);
    }
    return result;
  };
  const text = (input: string): string => {
    let result = replaceTokens(replaceAll(input, secrets), learned);
    for (const [name, values] of shortValues) {
      if (!result.toLowerCase().includes(name.toLowerCase())) continue;
      for (const value of values) {
        result = result.replace(new RegExp(`(${escapeRegExp(name)}["']?\\s*[:=]\\s*["']?)${escapeRegExp(value)}(?![\\w])`, 'gi'), `$1${REDACTED}`);
      }
    }
    return result;
  };
  /** A loop over the data (no depth limit): only strings that contain a credential are replaced. */
  const redactData = (value: unknown): unknown => {
    const scrub = (text: string): string => replaceAll(text, secrets);
    if (typeof value === 'string') return scrub(value);
    if (value === null || typeof value !== 'object') return value;
    const root = structuredClone(value) as Record<string, unknown>;
    const pending: Record<string, unknown>[] = [root];
    while (pending.length > 0) {
      const current = pending.pop() as Record<string, unknown>;
      for (const [key, child] of Object.entries(current)) {
        if (typeof child === 'string') current[key] = scrub(child);
        else if (child !== null && typeof child === 'object') pending.push(child as Record<string, unknown>);
      }
    }
    return root;
  };

  return {
    arguments: (value) => copy(value, 0) as Record<string, unknown>,
    data(value, source) {
      if (secrets.size === 0 || value === undefined) return value;
      // Without a backslash in the text, every string of the data is a verbatim slice of it (a
      // quote, a control character or a lone surrogate inside a JSON string needs an escape): a
      // credential absent from the text is in no string of the data.
      if (source !== undefined && !source.includes('\\')) {
        for (const secret of secrets) if (source.includes(secret)) return redactData(value);
        return value;
      }
      // Copy only when a credential appears (a secret JSON would escape is checked the slow way).
      const serialized = JSON.stringify(value);
      return [...secrets].some((secret) => serialized.includes(secret) || JSON.stringify(secret) !== `"${secret}"`) ? redactData(value) : value;
    },
    text,
    addSecret,
    addParameterNames(added) {
      for (const name of added) names.add(name.toLowerCase());
    },
    isRedactedName,
  };
}

/**
 * `input` with every occurrence of `value` that stands alone (no letter, digit, `_` or `-` as the
 * code point right before or after it) replaced by `[REDACTED]`, left to right without overlaps. A
 * search rather than a regular expression: the text of every call is redacted, and compiling a
 * pattern per value and call cost more than the search. An occurrence that would begin or end inside
 * a surrogate pair is not one (as in a `u` pattern).
 */
function replaceStandalone(input: string, value: string): string {
  let result = '';
  let copiedUpTo = 0;
  for (let index = input.indexOf(value); index !== -1;) {
    const end = index + value.length;
    if (standsAlone(input, index, end)) {
      result += `${input.slice(copiedUpTo, index)}${REDACTED}`;
      copiedUpTo = end;
      index = input.indexOf(value, end);
    } else {
      index = input.indexOf(value, index + 1);
    }
  }
  return copiedUpTo === 0 ? input : result + input.slice(copiedUpTo);
}

function standsAlone(input: string, start: number, end: number): boolean {
  if (splitsPair(input, start) || splitsPair(input, end)) return false;
  const before = start === 0 ? undefined : input.codePointAt(start >= 2 && splitsPair(input, start - 1) ? start - 2 : start - 1);
  const after = input.codePointAt(end);
  return !(before !== undefined && continuesIdentifier(before)) && !(after !== undefined && continuesIdentifier(after));
}

/**
 * True when the code point is a letter, a digit, `_` or `-`. ASCII (nearly every neighbour in a
 * response: quotes, slashes, commas) is decided by its code; only other code points run the Unicode
 * pattern, which with its string cost more than the rest of the search for a page of identifiers.
 */
function continuesIdentifier(codePoint: number): boolean {
  if (codePoint >= 0x80) return IDENTIFIER_CHARACTER.test(String.fromCodePoint(codePoint));
  return (
    (codePoint >= 0x61 && codePoint <= 0x7a) || // a-z
    (codePoint >= 0x41 && codePoint <= 0x5a) || // A-Z
    (codePoint >= 0x30 && codePoint <= 0x39) || // 0-9
    codePoint === 0x5f || // _
    codePoint === 0x2d // -
  );
}

/** True when `index` falls between the two halves of a surrogate pair. */
function splitsPair(input: string, index: number): boolean {
  if (index <= 0 || index >= input.length) return false;
  const previous = input.charCodeAt(index - 1);
  const current = input.charCodeAt(index);
  return previous >= 0xd800 && previous <= 0xdbff && current >= 0xdc00 && current <= 0xdfff;
}

/** Every key/value pair of a nested value, iteratively. */
function* deepEntries(value: object): Generator<[string, unknown]> {
  const pending: object[] = [value];
  for (let visited = 0; pending.length > 0 && visited < 100_000; visited++) {
    const current = pending.pop() as object;
    for (const entry of Object.entries(current)) {
      yield entry;
      if (entry[1] !== null && typeof entry[1] === 'object') pending.push(entry[1]);
    }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
