import { execFileSync } from 'node:child_process';

/** The path of a Chromium on PATH (`chromium`, `chromium-browser`), or undefined when there is none. */
export function findChromium(): string | undefined {
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      const path = execFileSync('which', [name], { encoding: 'utf8' }).trim();
      if (path) return path;
    } catch {
      // not on PATH
    }
  }
  return undefined;
}
