/**
 * Names every LLM API accepts: OpenAI and Anthropic allow `^[a-zA-Z0-9_-]{1,64}$`, Gemini also
 * requires a leading letter or underscore. The intersection, with a leading letter, is used.
 */
export const TOOL_NAME_PATTERN: RegExp = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

const MAX_LENGTH = 64;

/**
 * A name valid for every target, derived from any text: kept as is when already valid; otherwise
 * Unicode folded to ASCII, other characters replaced by `_`, a leading letter ensured, and, because
 * that is lossy, a short hash of the original appended so that different inputs stay apart.
 */
export function sanitizeToolName(raw: string): string {
  if (TOOL_NAME_PATTERN.test(raw)) return raw;
  let name = raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/_{3,}/g, '__');
  if (!/^[A-Za-z]/.test(name)) name = `t_${name}`;
  return withSuffix(name, hash(raw));
}

/**
 * Valid and unique names for a list of raw names, in order: each is sanitised, and a name already
 * given to an earlier entry gets a hash suffix (repeated with a counter until free). Equal raw names
 * still get different results, so the mapping back from name to entry is always unambiguous.
 */
export function assignToolNames(raws: readonly string[]): string[] {
  const taken = new Set<string>();
  return raws.map((raw) => {
    let name = sanitizeToolName(raw);
    for (let attempt = 1; taken.has(name); attempt++) name = withSuffix(sanitizeToolName(raw), hash(`${raw}#${attempt}`));
    taken.add(name);
    return name;
  });
}

function withSuffix(name: string, suffix: string): string {
  const room = MAX_LENGTH - suffix.length - 1;
  return `${name.slice(0, room).replace(/_+$/, '') || 't'}_${suffix}`;
}

/** FNV-1a 32-bit as 7 base-36 digits: short, deterministic, dependency-free. */
function hash(text: string): string {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value.toString(36).padStart(7, '0');
}
