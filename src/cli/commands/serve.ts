import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AicapError, WELL_KNOWN_PATH, parseManifest } from '../../index.js';
import { createCatalogHandler, CATALOG_PATH, createManifestHandler, toNodeListener } from '../../server/index.js';
import type { CliCommand, CliIo } from '../cli-io.js';
import { parseCommandLine } from '../parse-command-line.js';

const USAGE = `Usage: aicap serve <manifest.json> [--port <n>] [--host <address>] [--base-url <url>] [--max-age <s>]

Serves a manifest file the way aicap/server does (canonical bytes, ETag, 304, CORS) at
${WELL_KNOWN_PATH}, plus ${CATALOG_PATH}, to preview it or to test a client against it.

  --port <n>        port to listen on, default 3000 (0 picks a free one)
  --host <address>  address to bind, default 127.0.0.1
  --base-url <url>  replace service.base_url (e.g. with the origin being served)
  --max-age <s>     Cache-Control max-age in seconds, default 300
  -h, --help        show this help

Prints the origin on stdout once listening; stops on Ctrl-C (SIGINT) or SIGTERM.
Exit status: 2 for a usage error or an unreadable/invalid manifest.
`;

/** `aicap serve <manifest.json>`: a thin wrapper over `createManifestHandler` and `toNodeListener`. */
export const serveCommand: CliCommand = {
  summary: 'serve a manifest file at /.well-known/ai-capabilities (preview and testing)',
  async run(argv: string[], io: CliIo): Promise<number> {
    const parsed = parseCommandLine(argv, io, {
      usage: USAGE,
      options: {
        port: { type: 'string', default: '3000' },
        host: { type: 'string', default: '127.0.0.1' },
        'base-url': { type: 'string' },
        'max-age': { type: 'string', default: '300' },
      },
      positionals: { min: 1, max: 1, missing: 'the manifest file to serve', expected: 'one manifest file' },
    });
    if (typeof parsed === 'number') return parsed;
    const file = parsed.positionals[0]!;
    const port = Number(parsed.values.port);
    const maxAgeInSeconds = Number(parsed.values['max-age']);
    if (!Number.isSafeInteger(port) || port < 0 || port > 65_535) {
      io.error(`The \`--port\` option must be a whole number from 0 to 65535, got ${JSON.stringify(parsed.values.port)}.`);
      return 2;
    }
    if (!Number.isSafeInteger(maxAgeInSeconds) || maxAgeInSeconds < 0) {
      io.error(`The \`--max-age\` option must be a whole number of seconds, got ${JSON.stringify(parsed.values['max-age'])}.`);
      return 2;
    }

    let text: Buffer;
    try {
      text = await readFile(file);
    } catch (error) {
      io.error(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
      return 2;
    }
    const result = parseManifest(text);
    if (!result.valid || !result.manifest) {
      for (const issue of result.issues.filter((item) => item.severity === 'error')) io.error(`${issue.pointer || '/'}  ${issue.code}  ${issue.message}`);
      io.error(`${file} is not a valid manifest; run \`aicap validate ${file}\` for details.`);
      return 2;
    }
    const manifest = result.manifest;
    const baseUrl = parsed.values['base-url'];

    const server = createServer();
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, parsed.values.host, () => resolve());
      });
    } catch (error) {
      io.error(`Cannot listen on ${parsed.values.host}:${port}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
      return 2;
    }
    const address = server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const origin = `http://${host}:${address.port}`;

    let manifestHandler;
    let catalogHandler;
    try {
      const served = baseUrl === undefined ? manifest : { ...manifest, service: { ...manifest.service, base_url: baseUrl } };
      manifestHandler = createManifestHandler({ manifest: served, cacheControl: `public, max-age=${maxAgeInSeconds}` });
      catalogHandler = createCatalogHandler({
        manifests: [{ url: `${origin}${WELL_KNOWN_PATH}`, name: served.service.name, ...(served.service.description ? { description: served.service.description } : {}) }],
      });
    } catch (error) {
      server.close();
      io.error(AicapError.isInstance(error) ? error.message : `Cannot serve the manifest: ${(error as Error).message}`);
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
    io.info(`serving ${file} at ${origin}${WELL_KNOWN_PATH} (Ctrl-C stops)`);

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
