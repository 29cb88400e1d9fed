// Keys an engine enumerates before all others, in numeric order (array indices, ECMA-262 §10.1.11.1);
// the pattern also takes a few longer numerals that are not indices, which only costs a slower path.
const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;

/**
 * Whether an engine may enumerate this member name before the others whatever the order it was
 * written in (an array index), with a first-character test that spares the expression for nearly
 * every name.
 * @internal
 */
export function isArrayIndexLike(key: string): boolean {
  const first = key.charCodeAt(0);
  return first >= 0x30 && first <= 0x39 && ARRAY_INDEX.test(key);
}
