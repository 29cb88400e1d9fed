import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProcessIo } from './cli-io.js';

/** What `createProcessIo` wrote to each process stream while `write` ran. */
function captureStreams(write: (io: ReturnType<typeof createProcessIo>) => void): { stdout: string; stderr: string } {
  const written = { stdout: '', stderr: '' };
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((written.stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((written.stderr += String(chunk)), true));
  try {
    write(createProcessIo());
  } finally {
    vi.restoreAllMocks();
  }
  return written;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createProcessIo', () => {
  it.each([
    ['error', '✘'],
    ['warn', '⚠'],
    ['info', '✔'],
  ] as const)('%s writes one marked line on stderr, never stdout', (method, mark) => {
    const { stdout, stderr } = captureStreams((io) => io[method]('done'));
    expect(stdout).toBe('');
    expect(stderr).toBe(`${mark} done\n`);
  });

  it.each([
    ['ESC (CSI and OSC sequences)', 'a\u001b[2J\u001b]0;title\u0007b', 'a\\u001b[2J\\u001b]0;title\\u0007b'],
    ['CR, which lets text overwrite the line', 'ok\r✔ fake', 'ok\\u000d✔ fake'],
    ['C1 controls (8-bit CSI)', 'x\u009b31my', 'x\\u009b31my'],
    ['bidi overrides and isolates', 'abc\u202edcb\u2066x\u2069', 'abc\\u202edcb\\u2066x\\u2069'],
    ['line and paragraph separators', 'a\u2028b\u2029c', 'a\\u2028b\\u2029c'],
    ['DEL and backspace', 'a\u007f\bb', 'a\\u007f\\u0008b'],
  ])('escapes %s in messages a command forgot to escape', (_case, message, shown) => {
    for (const method of ['error', 'warn', 'info'] as const) {
      const { stderr } = captureStreams((io) => io[method](message));
      expect(stderr.slice(2)).toBe(`${shown}\n`);
    }
  });

  it('keeps the line feeds of a multi-line message', () => {
    expect(captureStreams((io) => io.error('first\nsecond')).stderr).toBe('✘ first\nsecond\n');
  });

  it('writes stdout and stderr as given (machine output and progress bars)', () => {
    const { stdout, stderr } = captureStreams((io) => {
      io.stdout('{"ok":true}\n');
      io.stderr('\r 50%');
    });
    expect(stdout).toBe('{"ok":true}\n');
    expect(stderr).toBe('\r 50%');
  });

  it.each([
    [true, true, true],
    [true, undefined, false],
    [undefined, true, false],
  ])('is interactive only when stdin (%s) and stderr (%s) are terminals', (stdinTty, stderrTty, expected) => {
    const saved = { stdin: process.stdin.isTTY, stderr: process.stderr.isTTY };
    try {
      Object.assign(process.stdin, { isTTY: stdinTty });
      Object.assign(process.stderr, { isTTY: stderrTty });
      expect(createProcessIo().isInteractive).toBe(expected);
    } finally {
      Object.assign(process.stdin, { isTTY: saved.stdin });
      Object.assign(process.stderr, { isTTY: saved.stderr });
    }
  });
});
