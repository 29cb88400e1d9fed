/**
 * The terms of an error message that depend on who reads it. A program changes an option of
 * `createClient` or calls `client.approve`; a CLI user passes a flag or runs a command. An error keeps
 * the terms its message names as data (`AicapError.terms`), its message words them as a program
 * writes them, and a front end (the CLI) puts its own wording in their place: no pattern over English.
 */

/** An option of a factory or a call, as a program writes its path (`network.timeouts.headersInMs`). */
export interface OptionTerm {
  kind: 'option';
  /** The option's path as the caller writes it. */
  option: string;
  /** The function the option is given to, when the message names it (`createClient`). */
  of?: string;
  /** The value to give it, when the advice is to set one (`strict: false`). */
  value?: boolean | number | string;
}

/** A value given to a function, as an argument or an option (`discover`'s `originOrUrl`), named at the start of a sentence. */
export interface ArgumentTerm {
  kind: 'argument';
  /** The parameter's (or option's) name in the function's signature. */
  argument: string;
  /** The function. */
  of: string;
}

/** Approving a tool again after its definition changed since it was pinned (`client.approve(toolId)`). */
export interface ApprovalTerm {
  kind: 'approval';
  /** The tool (or resource) id to approve. */
  toolId: string;
  /** The origin of its service. */
  origin: string;
}

/** Advice only a program can follow (a function to call), left out by a front end that has its own command. */
export interface ProgramOnlyTerm {
  kind: 'program-only';
  /** What a program does instead, as a sentence fragment. */
  advice: string;
}

/** A term of a message whose wording depends on the reader. */
export type MessageTerm = OptionTerm | ArgumentTerm | ApprovalTerm | ProgramOnlyTerm;

/** A message and the terms it names, built by the `worded` template. */
export interface WordedMessage {
  /** The message as a program reads it. */
  text: string;
  /** Each term the text names, in order. */
  terms: readonly MessageTerm[];
}

/** The option term ``the `agentId` option of `createClient` `` (`` `agentId` `` without `of`, `` `strict: false` `` with a value). */
export function optionTerm(option: string, details: { of?: string; value?: boolean | number | string } = {}): OptionTerm {
  return { kind: 'option', option, ...details };
}

/** The argument term ``The `originOrUrl` given to `discover` ``. */
export function argumentTerm(argument: string, of: string): ArgumentTerm {
  return { kind: 'argument', argument, of };
}

/** The approval term ``call `client.approve('refund')` ``. */
export function approvalTerm(toolId: string, origin: string): ApprovalTerm {
  return { kind: 'approval', toolId, origin };
}

/** Advice for programs only, worded `` (from code: <advice>)``. */
export function programOnlyTerm(advice: string): ProgramOnlyTerm {
  return { kind: 'program-only', advice };
}

/** How a program reads a term: the wording every library message uses. */
export function programWording(term: MessageTerm): string {
  switch (term.kind) {
    case 'option': {
      const written = term.value === undefined ? `\`${term.option}\`` : `\`${term.option}: ${JSON.stringify(term.value)}\``;
      return term.of === undefined ? written : `the ${written} option of \`${term.of}\``;
    }
    case 'argument':
      return `The \`${term.argument}\` given to \`${term.of}\``;
    case 'approval':
      return `call \`client.approve('${term.toolId}')\``;
    case 'program-only':
      return ` (from code: ${term.advice})`;
  }
}

function isMessageTerm(value: unknown): value is MessageTerm {
  const kind = (value as { kind?: unknown } | null)?.kind;
  return typeof value === 'object' && (kind === 'option' || kind === 'argument' || kind === 'approval' || kind === 'program-only');
}

function isWordedMessage(value: unknown): value is WordedMessage {
  return typeof value === 'object' && value !== null && typeof (value as { text?: unknown }).text === 'string' && Array.isArray((value as { terms?: unknown }).terms);
}

/**
 * A tagged template for a message that names terms: each {@link MessageTerm} value is worded as a
 * program reads it and recorded in `terms`, a nested {@link WordedMessage} brings its text and terms,
 * and every other value is interpolated as text.
 */
export function worded(strings: TemplateStringsArray, ...values: unknown[]): WordedMessage {
  const terms: MessageTerm[] = [];
  let text = strings[0] ?? '';
  values.forEach((value, index) => {
    if (isMessageTerm(value)) {
      terms.push(value);
      text += programWording(value);
    } else if (isWordedMessage(value)) {
      terms.push(...value.terms);
      text += value.text;
    } else {
      text += String(value);
    }
    text += strings[index + 1] ?? '';
  });
  return { text, terms };
}

/**
 * `text` with each of `terms` worded by `wording` instead of as a program reads it: the exact
 * wording {@link worded} put there is replaced, so values the message quotes are left alone.
 */
export function rewordTerms(text: string, terms: readonly MessageTerm[], wording: (term: MessageTerm) => string | undefined): string {
  return terms.reduce((current, term) => {
    const replacement = wording(term);
    return replacement === undefined ? current : current.split(programWording(term)).join(replacement);
  }, text);
}
