/**
 * `compute` with its results kept per argument, for a pure function of a string that runs far more
 * often than it meets new arguments. At most `maxEntries` are kept: past that they are all forgotten at
 * once, so that a stream of distinct arguments (a hostile document's hosts) cannot grow memory.
 * @internal
 */
export function rememberResults<Value>(compute: (argument: string) => Value, maxEntries: number): (argument: string) => Value {
  const results = new Map<string, Value>();
  return (argument) => {
    // One lookup on a hit; `has` only tells a remembered `undefined` from a new argument.
    const known = results.get(argument);
    if (known !== undefined || results.has(argument)) return known as Value;
    const result = compute(argument);
    if (results.size >= maxEntries) results.clear();
    results.set(argument, result);
    return result;
  };
}
