import { fromPointer } from '../internal/json-pointer.js';

/** Where a link expression reads its value (spec section 7.20). */
export type LinkSource = 'result' | 'item' | 'arguments';

/** A parsed link expression. */
export interface LinkExpression {
  /** `result` (the response body), `item` (each item of a list result) or `arguments` (the call's own arguments). */
  source: LinkSource;
  /** The JSON Pointer as written (`''` is the whole value). */
  pointer: string;
  /** Its unescaped reference tokens. */
  tokens: string[];
}

const EXPRESSION = /^\$(result|item|arguments)#((?:\/(?:[^~/]|~[01])*)*)$/;

/** Parses `$result#/a/b`, `$item#/id` or `$arguments#/name`; undefined when the text is not one. */
export function parseLinkExpression(text: string): LinkExpression | undefined {
  const match = EXPRESSION.exec(text);
  if (!match) return undefined;
  const pointer = match[2] ?? '';
  return { source: match[1] as LinkSource, pointer, tokens: fromPointer(pointer) };
}
