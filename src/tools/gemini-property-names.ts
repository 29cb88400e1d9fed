/** Gemini's documented rule for parameter (property) names. */
export const GEMINI_PROPERTY_NAME: RegExp = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

// One object's property names are renamed together: the same key list always gives the same names,
// so the exporter and the mapping back (which only see the schema) agree without sharing state.
const cache = new WeakMap<object, Map<string, string>>();

/**
 * The name Gemini sees for each property of one `properties` object (original name → exported
 * name). Valid names are kept; any other name has each character outside `[A-Za-z0-9_]` replaced by
 * `_`, a leading `_` added when it starts with a digit, and is cut to 64 characters; a name already
 * taken gets `_2`, `_3`… So `if-match` becomes `if_match`, and `toManifestArguments` maps it back.
 */
export function geminiPropertyNames(properties: Record<string, unknown>): Map<string, string> {
  const cached = cache.get(properties);
  if (cached) return cached;
  const names = Object.keys(properties);
  const taken = new Set(names.filter((name) => GEMINI_PROPERTY_NAME.test(name)));
  const result = new Map<string, string>();
  for (const name of names) {
    if (GEMINI_PROPERTY_NAME.test(name)) {
      result.set(name, name);
      continue;
    }
    let base = name.replace(/[^A-Za-z0-9_]/g, '_');
    if (!/^[A-Za-z_]/.test(base)) base = `_${base}`;
    base = base.slice(0, 64);
    let candidate = base;
    for (let counter = 2; taken.has(candidate); counter++) candidate = `${base.slice(0, 64 - String(counter).length - 1)}_${counter}`;
    taken.add(candidate);
    result.set(name, candidate);
  }
  cache.set(properties, result);
  return result;
}
