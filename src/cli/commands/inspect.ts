import { spawn } from 'node:child_process';
import { startInspector } from '../../inspector/start-inspector.js';
import type { CliCommand, CliIo } from '../cli-io.js';
import { cliErrorMessage } from '../cli-error-message.js';
import { parseCommandLine, readWholeNumberOption } from '../parse-command-line.js';
import { isUrlSource, readManifestFile } from '../read-manifest-file.js';

const USAGE = `Usage: aicap inspect [<origin> | <manifest.json>] [--port <n>] [--token <token>] [--no-open]

Starts a local web inspector on 127.0.0.1: the manifest and its validation issues (highlighted in
the JSON), trust findings, the \`aicap check\` report, every tool with a form to call it through the
aicap client (approval asked in a dialog), jobs with live progress, tool selection and diffs.

  --port <n>       port on 127.0.0.1, default 0 (a free one)
  --token <token>  bearer token for the service (can also be typed in the page)
  --no-open        print the URL without opening a browser
  -h, --help       show this help

Prints the URL (with a per-run secret token; every request without it is refused) on stdout first.
Stops on Ctrl-C (SIGINT) or SIGTERM. Exit status: 2 for a usage error or a port that cannot be used.
`;

/** `aicap inspect`: a thin wrapper over the inspector's server. */
export const inspectCommand: CliCommand = {
  async run(argv: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandLine(argv, io, {
      usage: USAGE,
      options: { port: { type: 'string' }, token: { type: 'string' }, 'no-open': { type: 'boolean', default: false } },
      positionals: { min: 0, max: 1, missing: 'nothing', expected: 'at most one origin or manifest file' },
    });
    if (typeof parsed === 'number') return parsed;
    // Read as `serve` reads it: digits only (`1e3` and `0x50` are not ports 1000 and 80).
    const port = readWholeNumberOption(io, 'port', parsed.values.port, { fallback: 0, min: 0, max: 65_535, unit: 'port' });
    if (port === undefined) return 2;
    const source = parsed.positionals[0];
    if (source !== undefined && !isUrlSource(source)) {
      // A file that cannot be read is a usage error, as for `serve`: no server started for a typo.
      try {
        await readManifestFile(source, 0);
      } catch (error) {
        io.error(cliErrorMessage(error));
        return 2;
      }
    }
    let inspector;
    try {
      inspector = await startInspector({ port, ...(parsed.positionals[0] ? { source: parsed.positionals[0] } : {}), ...(parsed.values.token ? { token: parsed.values.token } : {}) });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      io.error(
        code === 'EADDRINUSE' ? `Port ${port} is in use on 127.0.0.1: pick another with \`--port\`, or \`--port 0\` for a free one.` : `Cannot start the inspector: ${(error as Error).message}`,
      );
      return 2;
    }
    io.stdout(`${inspector.url}\n`);
    const view = inspector.session.view();
    if (view?.refused) io.warn(`${view.source}: ${view.refused.message} (the page shows the details).`);
    if (!parsed.values['no-open']) openBrowser(inspector.url);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    await inspector.close();
    return 0;
  },
};

/** Best effort: the URL is printed anyway, so a machine without a browser loses nothing. */
function openBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No opener on this machine.
  }
}
