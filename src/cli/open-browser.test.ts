import { describe, expect, it } from 'vitest';
import { browserCommand } from './open-browser.js';

describe('browserCommand', () => {
  const url = 'https://as.example.com/authorize?client_id=a&state=b;c';

  it('passes the URL as one argument, never through a shell, on every platform', () => {
    expect(browserCommand(url, 'linux')).toEqual({ command: 'xdg-open', args: [url] });
    expect(browserCommand(url, 'darwin')).toEqual({ command: 'open', args: [url] });
    // `cmd /c start` would cut the URL at `&`: the protocol handler takes it whole.
    expect(browserCommand(url, 'win32')).toEqual({ command: 'rundll32', args: ['url.dll,FileProtocolHandler', url] });
  });
});
