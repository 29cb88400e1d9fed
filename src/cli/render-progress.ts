import type { CliIo } from './cli-io.js';

const BAR_WIDTH = 30;

/**
 * Shows a job's progress on stderr: a bar redrawn in place on a terminal, one `N%` line per update
 * otherwise (logs and CI keep every step). `done` ends the bar's line on a terminal.
 */
export function renderProgress(io: CliIo, percent: number, done = false): void {
  const clamped = Math.max(0, Math.min(100, Math.round(percent)));
  if (!io.isInteractive) {
    if (!done) io.stderr(`${clamped}%\n`);
    return;
  }
  const filled = Math.round((clamped / 100) * BAR_WIDTH);
  io.stderr(`\r\x1b[2K[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${clamped}%${done ? '\n' : ''}`);
}
