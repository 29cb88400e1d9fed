/**
 * `aicap generate` as built: a subset of an API by tag, path prefix or operation id, and the overlay
 * scaffold, which feeds back as an overlay and whose TODO intent reaches neither exports nor selection.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli, type CliRun } from '../helpers/run-built-cli.js';

const run = (...args: string[]): Promise<CliRun> => runBuiltCli(args, { timeoutInMs: 60_000 });
const operation = (operationId: string, tag: string, summary: string) => ({ operationId, tags: [tag], summary, responses: { '200': { description: 'ok' } } });
const description = {
  openapi: '3.0.3',
  info: { title: 'Music', version: '1.0.0' },
  servers: [{ url: 'https://music.example.com/v1' }],
  paths: {
    '/player/pause': { put: operation('pausePlayback', 'Player', 'Pause playback') },
    '/player/next': { post: operation('skipToNext', 'Player', 'Skip to the next track') },
    '/playlists': { get: operation('listPlaylists', 'Playlists', 'List playlists'), post: operation('createPlaylist', 'Playlists', 'Create a playlist') },
    '/markets': { get: operation('listMarkets', 'Markets', 'List markets') },
  },
};

describe('aicap generate --include-* and --overlay-scaffold', () => {
  let directory: string;
  let input: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'aicap-subset-'));
    input = join(directory, 'music.json');
    await writeFile(input, JSON.stringify(description));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });
  const idsOf = async (file: string): Promise<string[]> => (JSON.parse(await readFile(file, 'utf8')) as { tools: Array<{ id: string }> }).tools.map((tool) => tool.id).sort();

  it('keeps the operations any include matches: a tag, a path prefix, an operationId', async () => {
    const output = join(directory, 'subset.json');
    const result = await run('generate', input, '-o', output, '--include-tag', 'player', '--include-operation', 'listMarkets');
    expect(result.code, result.stderr).toBe(0);
    expect(await idsOf(output)).toEqual(['listMarkets', 'pausePlayback', 'skipToNext']);
    expect((await run('generate', input, '-o', output, '--include-path', '/playlists')).code).toBe(0);
    expect(await idsOf(output)).toEqual(['createPlaylist', 'listPlaylists']);
  });

  it('refuses, exit 2, a subset that matches nothing', async () => {
    const result = await run('generate', input, '-o', join(directory, 'none.json'), '--include-tag', 'Podcasts');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('No operation matches --include-tag');
  });

  it('writes a scaffold with every tool id and its summary, which applies as an overlay and changes no model text', async () => {
    const scaffold = join(directory, 'scaffold.yaml');
    const plain = join(directory, 'plain.json');
    expect((await run('generate', input, '-o', plain, '--overlay-scaffold', scaffold)).code).toBe(0);
    const text = await readFile(scaffold, 'utf8');
    for (const id of ['pausePlayback', 'skipToNext', 'listPlaylists', 'createPlaylist', 'listMarkets']) expect(text).toContain(`  ${id}:`);
    expect(text).toContain('(Skip to the next track)');
    const overlaid = join(directory, 'overlaid.json');
    const applied = await run('generate', input, '-o', overlaid, '--overlay', scaffold);
    expect(applied.code, applied.stderr).toBe(0);
    const exported = await run('tools', overlaid, '--format', 'openai', '--json');
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).not.toContain('TODO');
  });
});
