import { describe, expect, it } from 'vitest';
import { captureCliIo, runBuiltCli } from '../../test/helpers/run-built-cli.js';
import { commands } from './commands/index.js';
import { USAGE_WIDTH, wrapUsage } from './wrap-usage.js';

describe('help texts', () => {
  it.each(Object.keys(commands))('aicap %s --help fits in 80 columns, no flag glued to its text', async (name) => {
    const io = captureCliIo();
    expect(await (await commands[name]!.load()).run(['--help'], io)).toBe(0);
    const long = io.out.split('\n').filter((line) => line.length > USAGE_WIDTH && / \S+ \S/.test(line.trim()));
    expect(long).toEqual([]);
    expect(io.out).not.toMatch(/<\w+>[a-z]/);
    expect(raggedLines(io.out)).toEqual([]);
  });

  it('aicap --help fits in 80 columns', async () => {
    const help = await runBuiltCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout.split('\n').filter((line) => line.length > USAGE_WIDTH)).toEqual([]);
    expect(raggedLines(help.stdout)).toEqual([]);
  });

  it('reflows a paragraph the source wrapped at its own width, and keeps rows, items and headings apart', () => {
    const source = [
      'Usage: aicap x <a>',
      '',
      'One sentence the source wrapped',
      'early. Another one.',
      '',
      '  --flag <v>   text cut',
      '               short',
      '  --other      row',
      '  - item one',
      '  - item two',
      'Heading:',
      'text',
    ].join('\n');
    expect(wrapUsage(source, 40)).toBe(
      [
        'Usage: aicap x <a>',
        '',
        'One sentence the source wrapped early.',
        'Another one.',
        '',
        '  --flag <v>   text cut short',
        '  --other      row',
        '  - item one',
        '  - item two',
        'Heading:',
        'text',
      ].join('\n'),
    );
  });

  it('finds the description column of a row whose term leaves one space', () => {
    expect(wrapUsage(['  --max-duration <ms> stop after', '                      this long'].join('\n'), 80)).toBe('  --max-duration <ms> stop after this long');
  });

  it('indents a continuation under the description column, and keeps a long word whole', () => {
    expect(wrapUsage(`  --flag <v>   ${'word '.repeat(20).trim()}`, 40)).toBe(
      ['  --flag <v>   word word word word word', '               word word word word word', '               word word word word word', '               word word word word word'].join('\n'),
    );
    expect(wrapUsage(`  ${'x'.repeat(50)}`, 40)).toBe(`  ${'x'.repeat(50)}`);
  });
});

const ROW = /^(\s+\S(?:\S| (?! ))*\s{2,})\S/;

/**
 * The lines of a help text cut short: the next line carries on the same paragraph (at a row's
 * description column, or at the prose's own indentation) and its first word would have fitted.
 */
function raggedLines(text: string): string[] {
  const lines = text.split('\n');
  const ragged: string[] = [];
  for (let index = 0; index + 1 < lines.length; index++) {
    const line = lines[index]!;
    const next = lines[index + 1]!;
    if (line.trim() === '' || next.trim() === '' || line.trimEnd().endsWith(':') || next.trimStart().startsWith('-')) continue;
    const nextIndent = next.length - next.trimStart().length;
    const row = ROW.exec(line);
    const column = row === null ? line.length - line.trimStart().length : row[1]!.length;
    const carriesOn = nextIndent === column && (row !== null || ROW.exec(next) === null);
    if (carriesOn && line.length + 1 + next.trim().split(' ')[0]!.length <= USAGE_WIDTH) ragged.push(`${line} | ${next}`);
  }
  return ragged;
}
