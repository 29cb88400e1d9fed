/**
 * The CLI flag that sets each library option a message may name. Errors carry the option they
 * concern (`AicapError.option`, `CallError.option`); a CLI user changes a flag, so the CLI names it.
 */
const OPTION_FLAGS: Readonly<Record<string, string>> = {
  agentId: '--agent-id',
  includeDeprecated: '--include-deprecated',
  strict: '--lenient',
  refRoot: '--ref-root',
  serverUrl: '--server-url',
  overlay: '--overlay',
  arazzo: '--arazzo',
};

/** The flag that sets `option`, or undefined when no flag does. */
export function flagForOption(option: string): string | undefined {
  return OPTION_FLAGS[option];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `text` with the option (`` `agentId` `` and `` to createClient``, `` `strict: false` (CLI --lenient)``,
 * `` `includeDeprecated: true` ``) replaced by its flag; the text unchanged for an option no flag sets.
 * With no `option`, every option of the table is looked for (warnings are plain text).
 */
export function optionAsFlag(text: string, option?: string): string {
  const options = option === undefined ? Object.keys(OPTION_FLAGS) : [option];
  return options.reduce((current, name) => {
    const flag = OPTION_FLAGS[name];
    if (flag === undefined) return current;
    const written = new RegExp(`\`${escapeRegExp(name)}(?::[^\`]*)?\`(?: to [a-z]+[A-Z]\\w*| \\(CLI [^)]*\\))?`, 'g');
    return current.replace(written, `\`${flag}\``);
  }, text);
}
