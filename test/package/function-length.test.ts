// No function in src/ or in the Payments example is longer than 100 lines: a longer one holds several
// concerns that want names and tests of their own. Measured with the TypeScript parser over every
// source file (tests and build output aside). A line counts when it holds code: blank lines, comment
// lines and lines that only close brackets (`)`, `});`, `],`) do not, so the count is the same before
// and after the formatter (`npm run format`) splits a long call over several lines.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SOURCES = ['src', 'examples/payments'].map((directory) => join(ROOT, directory));
const MAX_LINES = 100;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return name === 'dist' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !/\.test(-d)?\.ts$/.test(name) ? [path] : [];
  });
}

const NOT_CODE = /^(?:$|\/\/|\/\*|\*|[)\]}]+[;,)\]}]*$)/;

/** The lines from `start` to `end` (0-based, inclusive) that hold code. */
export function codeLines(lines: readonly string[], start: number, end: number): number {
  let count = 0;
  for (let index = start; index <= end; index += 1) if (!NOT_CODE.test((lines[index] ?? '').trim())) count += 1;
  return count;
}

function longFunctions(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const length = codeLines(lines, start, end);
      if (length > MAX_LINES) {
        const name = node.name && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
        found.push(`${relative(ROOT, file)}:${start + 1} ${name} is ${length} lines of code`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('codeLines', () => {
  it('counts code, not blank, comment or closing-bracket lines', () => {
    const lines = ['function f() {', '  // why', '', '  call(', '    a,', '  );', '  /* note', '   * more */', '  return [1];', '}'];
    expect(codeLines(lines, 0, lines.length - 1)).toBe(4);
  });
});

describe('function length in src/ and examples/payments/', () => {
  it(`has no function over ${MAX_LINES} lines`, () => {
    expect(SOURCES.flatMap(sourceFiles).flatMap(longFunctions)).toEqual([]);
  });
});
