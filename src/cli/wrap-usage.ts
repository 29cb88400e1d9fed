/** The width help texts are wrapped to: a default terminal. */
export const USAGE_WIDTH = 80;

/**
 * A usage text reflowed to `width`. The texts are written wrapped at the source's own width, so the
 * lines of one paragraph are joined first and then wrapped at spaces; wrapping each line alone
 * left a short stub after every line, a ragged help on an 80-column terminal. A paragraph is a run
 * of non-blank lines that continue at the same indentation: the description column of a
 * `  --flag <v>   description` row, or the line's own indentation for prose. A blank line, a new
 * row, a list item, an indentation change or a line ending in `:` (a heading) ends it. A
 * continuation is indented like the paragraph's text (under the first argument of a
 * `Usage: aicap <command>` line). A word longer than the room left stays whole.
 */
export function wrapUsage(text: string, width: number = USAGE_WIDTH): string {
  const lines = text.split('\n');
  const wrapped: string[] = [];
  let index = 0;
  while (index < lines.length) {
    let paragraph = lines[index++]!;
    const indent = continuationIndent(paragraph, lines[index]);
    while (index < lines.length && paragraph.trim() !== '' && !paragraph.trimEnd().endsWith(':') && continuesAt(lines[index]!, indent)) {
      paragraph = `${paragraph.trimEnd()} ${lines[index++]!.trim()}`;
    }
    wrapped.push(paragraph.length <= width ? paragraph : wrapLine(paragraph, indent, width));
  }
  return wrapped.join('\n');
}

function wrapLine(line: string, indentWidth: number, width: number): string {
  const indent = ' '.repeat(indentWidth);
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

/** Whether `line` carries on the paragraph whose text starts at column `indent`. */
function continuesAt(line: string, indent: number): boolean {
  const text = line.trimStart();
  if (text === '' || line.length - text.length !== indent) return false;
  return ROW.exec(line) === null && !LIST_ITEM.test(text) && !line.startsWith('Usage: ');
}

const ROW = /^(\s+\S(?:\S| (?! ))*\s{2,})\S/;
// A flag (`--name`), a bullet or a numbered item starts a line of its own.
const LIST_ITEM = /^(?:-|[*•]\s|\d+[.)]\s)/;

/**
 * The column a paragraph's continuation lines start at. A row whose term fills its column leaves
 * one space before the description (`--max-duration <ms> async jobs…`): the next line's deeper
 * indentation, where it meets the start of a word of this line, names the description column.
 */
function continuationIndent(line: string, next: string | undefined): number {
  const usage = /^Usage: aicap \S+ /.exec(line);
  if (usage !== null) return usage[0].length;
  const row = ROW.exec(line);
  if (row !== null) return row[1]!.length;
  const own = /^\s*/.exec(line)![0].length;
  const hanging = next === undefined || next.trim() === '' ? own : next.length - next.trimStart().length;
  const startsAWord = hanging > own && hanging < line.length && line[hanging - 1] === ' ' && line[hanging] !== ' ';
  return startsAWord ? hanging : own;
}
