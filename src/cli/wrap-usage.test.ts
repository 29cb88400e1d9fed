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
  });

  it('aicap --help fits in 80 columns', async () => {
    const help = await runBuiltCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout.split('\n').filter((line) => line.length > USAGE_WIDTH)).toEqual([]);
  });

  it('indents a continuation under the description column, and keeps a long word whole', () => {
    expect(wrapUsage(`  --flag <v>   ${'word '.repeat(20).trim()}`, 40)).toBe(
      ['  --flag <v>   word word word word word', '               word word word word word', '               word word word word word', '               word word word word word'].join('\n'),
    );
    expect(wrapUsage(`  ${'x'.repeat(50)}`, 40)).toBe(`  ${'x'.repeat(50)}`);
  });
});
