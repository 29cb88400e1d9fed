/**
 * One POSIX shell word that stands for `text` exactly: single-quoted, each `'` written as `'\''`.
 * Inside single quotes the shell expands nothing (`$(…)`, backticks, `$VAR`, globs), so advice that
 * shows a command with a value from elsewhere cannot run that value.
 * @internal
 */
export function quoteForShell(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}
