/** The width help texts are wrapped to: a default terminal. */
export const USAGE_WIDTH = 80;

/**
 * A usage text with every line longer than `width` wrapped at spaces. A continuation is indented
 * like the line's text: under the description column of a `  --flag <v>   description` row, under
 * the first argument of a `Usage: aicap <command>` line, else at the line's own indentation. A word
 * longer than the room left stays whole.
 */
export function wrapUsage(text: string, width: number = USAGE_WIDTH): string {
  return text
    .split('\n')
    .map((line) => (line.length <= width ? line : wrapLine(line, width)))
    .join('\n');
}

function wrapLine(line: string, width: number): string {
  const indent = ' '.repeat(continuationIndent(line));
  const lines: string[] = [];
  let current = line;
  while (current.length > width) {
    const room = current.slice(0, width + 1);
    const cut = room.lastIndexOf(' ');
    // No space past the indentation to cut at: the word stays whole.
    if (cut <= indent.length) break;
    lines.push(current.slice(0, cut).trimEnd());
    current = `${indent}${current.slice(cut + 1).trimStart()}`;
  }
  lines.push(current);
  return lines.join('\n');
}

function continuationIndent(line: string): number {
  const usage = /^Usage: aicap \S+ /.exec(line);
  if (usage !== null) return usage[0].length;
  const row = /^(\s+\S(?:\S| (?! ))*\s{2,})\S/.exec(line);
  if (row !== null) return row[1]!.length;
  return /^\s*/.exec(line)![0].length;
}
