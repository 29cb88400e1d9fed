/**
 * Characters a terminal may act on instead of showing: C0 controls (ESC starts CSI/OSC sequences, CR
 * returns to the start of the line and lets later text overwrite earlier text, BEL, backspace), DEL,
 * C1 controls (U+009B is an 8-bit CSI, U+009D an 8-bit OSC), the Unicode line and paragraph
 * separators, and the bidirectional overrides and isolates that reorder what is shown.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// The same set without LF, for text whose line breaks are meant (a multi-line message of aicap's own).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_KEEPING_NEWLINES = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// What JSON.stringify leaves raw inside strings although a terminal acts on it (it escapes C0 only).
const UNSAFE_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** What {@link terminalSafeText} keeps as is. */
export interface TerminalSafeTextOptions {
  /**
  Keep line feeds (LF): for multi-line text aicap wrote itself, with untrusted parts already
  escaped. CR is escaped either way, since it lets a line overwrite what came before it.

  @default false
  */
  keepNewlines?: boolean;
}

/**
 * Makes text from a manifest or the network safe to print on a terminal: every character a terminal
 * would act on (escape sequences, CR, BEL, C1 controls, bidirectional overrides) is replaced by its
 * visible `\uXXXX` form, so the reader sees that it was there and nothing is hidden or rewritten.
 */
export function terminalSafeText(text: string, options: TerminalSafeTextOptions = {}): string {
  return text.replace(options.keepNewlines === true ? UNSAFE_KEEPING_NEWLINES : UNSAFE, escapeCharacter);
}

/**
 * `JSON.stringify` for output that may reach a terminal: JSON escapes C0 controls itself, and the
 * rest of the {@link terminalSafeText} set is escaped as `\uXXXX` too, which is the same JSON value.
 * Indented by two spaces, or on one line with `compact`; ends with a line feed.
 */
export function terminalSafeJson(value: unknown, options: { compact?: boolean } = {}): string {
  return `${JSON.stringify(value, null, options.compact === true ? undefined : 2).replace(UNSAFE_IN_JSON, escapeCharacter)}\n`;
}

function escapeCharacter(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
