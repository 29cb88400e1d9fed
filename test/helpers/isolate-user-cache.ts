import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Vitest setup file: the CLI keeps a cache under the user's cache directory. Commands run in-process
// and CLI processes spawned by a test file use a directory of that file's worker instead, so tests
// never read or fill the cache of the person running them.
process.env['AICAP_CACHE_DIR'] ??= mkdtempSync(join(tmpdir(), 'aicap-test-cache-'));
