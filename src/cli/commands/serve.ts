import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AicapError, WELL_KNOWN_PATH, parseManifest } from '../../index.js';
import { createCatalogHandler, CATALOG_PATH, createManifestHandler, toNodeListener } from '../../server/index.js';
import type { CliCommand, CliIo } from '../cli-io.js';
import { cliAdvice, cliErrorMessage } from '../cli-error-message.js';
import { defaultManifestMaxSizeInBytes } from '../../manifest/manifest-size-limit.js';
import { readManifestReadingFlags } from '../network-flags.js';
import { parseCommandLine, readWholeNumberOption } from '../parse-command-line.js';
import { readManifestFile } from '../read-manifest-file.js';
import { terminalSafeText } from '../../internal/terminal-safe-text.js';

const USAGE = `Usage: aicap serve <manifest.json> [--port <n>] [--host <address>] [--base-url <url>] [--max-age <s>] [--max-size <bytes>]

Serves a manifest file the way aicap/server does (canonical bytes, ETag, 304, CORS) at
${WELL_KNOWN_PATH}, plus ${CATALOG_PATH}, to preview it or to test a client against it.

  --port <n>        port to listen on, default 3000 (0 picks a free one)
  --host <address>  address to bind, default 127.0.0.1
  --base-url <url>  service.base_url to serve; by default the served origin replaces the origin of
                    the file's base_url (its path is kept), so that clients accept the manifest
  --max-age <s>     Cache-Control max-age in seconds, default 300
  --max-size <b>    largest manifest file accepted, in bytes, default ${defaultManifestMaxSizeInBytes}
  -h, --help        show this help

Prints the origin on stdout first, once listening; stops on Ctrl-C (SIGINT) or SIGTERM.
Exit status: 2 for a usage error or an unreadable/invalid manifest.
`;

/** `aicap serve <manifest.json>`: a thin wrapper over `createManifestHandler` and `toNodeListener`. */
export const serveCommand: CliCommand = {
  async run(argv: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandLine(argv, io, {
      usage: USAGE,
      options: {
        port: { type: 'string', default: '3000' },
        host: { type: 'string', default: '127.0.0.1' },
        'base-url': { type: 'string' },
        'max-age': { type: 'string', default: '300' },
        'max-size': { type: 'string' },
      },
      positionals: { min: 1, max: 1, missing: 'the manifest file to serve', expected: 'one manifest file' },
    });
    if (typeof parsed === 'number') return parsed;
    const file = parsed.positionals[0]!;
    const port = readWholeNumberOption(io, 'port', parsed.values.port, { fallback: 3000, min: 0, max: 65_535, unit: 'port' });
    const maxAgeInSeconds = readWholeNumberOption(io, 'max-age', parsed.values['max-age'], { fallback: 300, min: 0, unit: 'seconds' });
    const limits = readManifestReadingFlags(io, { 'max-size': parsed.values['max-size'] });
    if (port === undefined || maxAgeInSeconds === undefined || limits === undefined) return 2;
    const baseUrl = parsed.values['base-url'];
    if (baseUrl !== undefined && !/^https?:\/\/[^/?#\s]+/i.test(baseUrl)) {
      io.error(`The \`--base-url\` option takes an absolute http(s) URL such as http://127.0.0.1:${port}/api, got ${terminalSafeText(JSON.stringify(baseUrl))}.`);
      return 2;
    }

    let text: Uint8Array;
    try {
      text = await readManifestFile(file, limits.maxSizeInBytes);
    } catch (error) {
      io.error(cliErrorMessage(error));
      return 2;
    }
    const result = parseManifest(text, { maxSizeInBytes: limits.maxSizeInBytes });
    if (!result.valid || !result.manifest) {
      for (const issue of result.issues.filter((item) => item.severity === 'error').slice(0, 10)) io.error(cliAdvice(`${issue.pointer || '(root)'}  ${issue.code}  ${issue.message}`, issue.terms));
      io.error(`${terminalSafeText(file)} is not a valid manifest; run \`aicap validate ${terminalSafeText(file)}\` for details.`);
      return 2;
    }
    const manifest = result.manifest;

    const server = createServer();
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, parsed.values.host, () => resolve());
      });
    } catch (error) {
      io.error(listenFailure(parsed.values.host ?? '127.0.0.1', port, error));
      return 2;
    }
    const address = server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const origin = `http://${host}:${address.port}`;

    let manifestHandler;
    let catalogHandler;
    try {
      const servedBaseUrl = baseUrl ?? reboundBaseUrl(manifest.service.base_url, origin);
      const served = { ...manifest, service: { ...manifest.service, base_url: servedBaseUrl } };
      manifestHandler = createManifestHandler({ manifest: served, cacheControl: `public, max-age=${maxAgeInSeconds}` });
      catalogHandler = createCatalogHandler({
        manifests: [{ url: `${origin}${WELL_KNOWN_PATH}`, name: served.service.name, ...(served.service.description ? { description: served.service.description } : {}) }],
      });
    } catch (error) {
      server.close();
      io.error(AicapError.isInstance(error) ? cliErrorMessage(error) : `Cannot serve the manifest: ${cliErrorMessage(error)}`);
      return 2;
    }
    const manifestListener = toNodeListener(manifestHandler);
    const catalogListener = toNodeListener(catalogHandler);
    server.on('request', (request, response) => {
      const path = (request.url ?? '/').split('?')[0];
      if (path === CATALOG_PATH) catalogListener(request, response);
      else manifestListener(request, response);
    });
    io.stdout(`${origin}\n`);
    const servedBaseUrl = baseUrl ?? reboundBaseUrl(manifest.service.base_url, origin);
    if (baseUrl === undefined && servedBaseUrl !== manifest.service.base_url) {
      io.info(`service.base_url ${terminalSafeText(manifest.service.base_url)} served as ${terminalSafeText(servedBaseUrl)} (the served origin; \`--base-url <url>\` sets another)`);
    }
    io.info(`serving ${terminalSafeText(file)} at ${origin}${WELL_KNOWN_PATH} (Ctrl-C stops)`);

    await new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        server.close(() => resolve());
        server.closeAllConnections();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    return 0;
  },
};

/**
 * The file's base_url with its origin replaced by the served one, the rest kept as written: a client
 * binds a manifest to the origin it came from, so a preview is usable only when they agree.
 */
function reboundBaseUrl(baseUrl: string, origin: string): string {
  return baseUrl.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/, origin);
}

/** One line for a port that cannot be listened on, with the flag that fixes it. */
function listenFailure(host: string, port: number, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `${terminalSafeText(host)}:${port}`;
  if (code === 'EADDRINUSE') return `Cannot listen on ${where}: the port is in use; stop what listens there, or pick another with \`--port <n>\` (\`--port 0\` picks a free one).`;
  if (code === 'EACCES') return `Cannot listen on ${where}: permission denied; ports below 1024 need privileges, pick another with \`--port <n>\`.`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return `Cannot listen on ${where}: ${terminalSafeText(host)} is not an address of this machine; give one with \`--host <address>\` (default 127.0.0.1).`;
  return `Cannot listen on ${where}: ${cliErrorMessage(error)}.`;
}
