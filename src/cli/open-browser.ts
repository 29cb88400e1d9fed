import { spawn } from 'node:child_process';

/**
 * The command that opens a URL in the user's browser on this platform. No shell is involved: the URL
 * is one argument, so its `&` and `;` stay part of it (`cmd /c start` would split it, so Windows uses
 * the URL protocol handler instead).
 */
export function browserCommand(url: string, platform: NodeJS.Platform = process.platform): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  if (platform === 'win32') return { command: 'rundll32', args: ['url.dll,FileProtocolHandler', url] };
  return { command: 'xdg-open', args: [url] };
}

/**
 * Opens `url` in the browser, detached (the CLI does not wait for the browser). Resolves to false when
 * the opener cannot be started (no desktop, `xdg-open` missing), for the caller to say "open this URL
 * yourself"; it never rejects.
 */
export function openBrowser(url: string): Promise<boolean> {
  const { command, args } = browserCommand(url);
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(command, args, { detached: true, stdio: 'ignore' });
    } catch {
      resolve(false);
      return;
    }
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}
