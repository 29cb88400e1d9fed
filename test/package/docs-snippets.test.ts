/**
 * Every ```ts block of README.md and docs/*.md, exactly as written, against the built package.
 *
 * Each block becomes a file of its own in a scratch folder inside the repository (so `aicap/...` resolves
 * through the package's own `exports` to `dist/`, as for an installed consumer). All blocks are
 * type-checked together with `skipLibCheck: false`; then every block not marked otherwise runs in a
 * fresh Node process against the Payments example (`examples/payments`, started on 127.0.0.1 port 0).
 *
 * The only things a block receives from the test are explicit and visible in the block itself:
 * `process.env.PAYMENTS_URL` (the example's origin; a reader gets the `npm run example` default) and the
 * working directory, which holds the Payments manifest as `ai-capabilities.json`. No text is rewritten.
 *
 * Markers, on the line just before the fence:
 * - `<!-- snippet: typecheck [why] -->` type-checks the block only (it needs a model, a third-party API,
 *   or it is a server that listens on a fixed port);
 * - `<!-- snippet: skip <reason> -->` leaves it out; the reason is printed.
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT, runProcess } from '../helpers/packed-package.js';
import { startExampleProcess, type ExampleProcess } from '../helpers/start-example-process.js';

/** One ```ts block of a Markdown file. */
interface Snippet {
  /** `README.md:42` (the line of the opening fence). */
  where: string;
  /** File name in the scratch folder. */
  fileName: string;
  code: string;
  mode: 'run' | 'typecheck' | 'skip';
  /** Why a block is skipped or only type-checked. */
  reason: string;
}

const MARKER = /^<!--\s*snippet:\s*(typecheck|skip)\b\s*(.*?)\s*-->$/;

/** The ```ts blocks of one Markdown text, with the marker on the line before each fence. */
function extractSnippets(markdown: string, source: string): Snippet[] {
  const lines = markdown.split('\n');
  const snippets: Snippet[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    if (!/^```(ts|typescript)\s*$/.test(lines[index]!)) continue;
    const start = index;
    const body: string[] = [];
    for (index += 1; index < lines.length && !/^```\s*$/.test(lines[index]!); index += 1) body.push(lines[index]!);
    let previous = start - 1;
    while (previous >= 0 && lines[previous]!.trim() === '') previous -= 1;
    const marker = previous >= 0 ? MARKER.exec(lines[previous]!.trim()) : null;
    const slug = source.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase();
    snippets.push({
      where: `${source}:${start + 1}`,
      fileName: `${slug}-line-${start + 1}.ts`,
      code: `${body.join('\n')}\n`,
      mode: marker === null ? 'run' : (marker[1] as 'typecheck' | 'skip'),
      reason: marker?.[2] ?? '',
    });
  }
  return snippets;
}

function documentationSnippets(): Snippet[] {
  const docs = readdirSync(join(REPOSITORY_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs].flatMap((source) => extractSnippets(readFileSync(join(REPOSITORY_ROOT, source), 'utf8'), source));
}

const built = existsSync(join(REPOSITORY_ROOT, 'dist', 'client', 'index.js')) && existsSync(join(REPOSITORY_ROOT, 'examples', 'payments', 'dist', 'server.js'));
const snippets = documentationSnippets();
const checked = snippets.filter((snippet) => snippet.mode !== 'skip');

describe('extractSnippets', () => {
  it('reads the marker on the line before the fence, and nothing else', () => {
    const markdown = [
      '<!-- snippet: skip a fragment -->',
      '```ts',
      'a;',
      '```',
      'text',
      '',
      '<!-- snippet: typecheck needs a model -->',
      '',
      '```ts',
      'b;',
      '```',
      '```ts',
      'c;',
      '```',
      '```sh',
      'd',
      '```',
    ].join('\n');
    expect(extractSnippets(markdown, 'x.md').map(({ where, mode, reason, code }) => ({ where, mode, reason, code }))).toEqual([
      { where: 'x.md:2', mode: 'skip', reason: 'a fragment', code: 'a;\n' },
      { where: 'x.md:9', mode: 'typecheck', reason: 'needs a model', code: 'b;\n' },
      { where: 'x.md:12', mode: 'run', reason: '', code: 'c;\n' },
    ]);
  });

  it('finds the README quick starts and runs most blocks', () => {
    expect(snippets.length).toBeGreaterThan(10);
    expect(snippets.filter((snippet) => snippet.mode === 'run').length).toBeGreaterThanOrEqual(3);
    for (const snippet of snippets.filter((entry) => entry.mode === 'skip')) expect(snippet.reason, `${snippet.where} is skipped without a reason`).not.toBe('');
    // Every README block stands alone: a reader copies one block, not a chain of them.
    expect(snippets.filter((entry) => entry.mode === 'skip' && entry.where.startsWith('README.md')).map((entry) => entry.where)).toEqual([]);
  });
});

describe.skipIf(!built)('README and docs TypeScript blocks, as written', () => {
  let folder: string;
  let payments: ExampleProcess | undefined;
  let origin = '';

  beforeAll(async () => {
    for (const snippet of snippets.filter((entry) => entry.mode === 'skip')) console.warn(`Skipped ${snippet.where}: ${snippet.reason}`);
    // Inside the repository, so that `aicap` resolves to this package by its own name (its `exports`, i.e. dist/).
    folder = mkdtempSync(join(REPOSITORY_ROOT, '.snippets-'));
    copyFileSync(join(REPOSITORY_ROOT, 'examples', 'payments', 'payments.manifest.json'), join(folder, 'ai-capabilities.json'));
    for (const snippet of checked) writeFileSync(join(folder, snippet.fileName), snippet.code);
    const compilerOptions = { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] };
    writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: checked.map((snippet) => snippet.fileName) }));
    payments = startExampleProcess({ env: { PORT: '0' } });
    origin = (await payments.firstLine).trim();
  }, 60_000);

  afterAll(async () => {
    await payments?.stop();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });

  it('type-check with skipLibCheck false against the built package', async () => {
    const result = await runProcess(process.execPath, [join(REPOSITORY_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], folder, { timeoutInMs: 240_000 });
    // Diagnostics inside other packages' own files are theirs; every one in a block or in aicap's dist/ counts.
    const own = (result.stdout + result.stderr).split('\n').filter((line) => /error TS\d+/.test(line) && !line.includes('node_modules/'));
    const byBlock = own.map((line) => {
      const snippet = checked.find((entry) => line.startsWith(entry.fileName));
      return snippet === undefined ? line : `${snippet.where} (line ${/\((\d+),/.exec(line)?.[1] ?? '?'} of the block): ${line.replace(/^[^:]+:\s*/, '')}`;
    });
    expect(byBlock).toEqual([]);
    expect(result.code === 0 || own.length > 0 || result.stdout.includes('error TS'), result.stderr).toBe(true);
  }, 300_000);

  for (const snippet of snippets.filter((entry) => entry.mode === 'run')) {
    it(`runs ${snippet.where}`, async () => {
      const javascript = ts.transpileModule(snippet.code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 }, fileName: snippet.fileName }).outputText;
      const file = join(folder, snippet.fileName.replace(/\.ts$/, '.mjs'));
      writeFileSync(file, javascript);
      const result = await runProcess(process.execPath, [file], folder, { timeoutInMs: 45_000, env: { PAYMENTS_URL: origin } });
      expect(result.code, `${snippet.where} exited ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(0);
    }, 60_000);
  }
});
