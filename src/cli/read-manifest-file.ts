import { open } from 'node:fs/promises';
import { AicapError } from '../errors/aicap-error.js';
import { terminalSafeText } from '../internal/terminal-safe-text.js';

const READ_CHUNK_IN_BYTES = 65_536;

/**
 * True when a command-line source names something to fetch (`https://…`, `http://…`) rather than a
 * file. A Windows drive letter (`C:\…`) is a file.
 */
export function isUrlSource(source: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(source) && !/^[A-Za-z]:[\\/]/.test(source);
}

/**
 * Reads a manifest file for a command, at most `maxSizeInBytes + 1` bytes (so that the parser
 * reports the size with the `--max-size` advice instead of the whole file being read). Every failure
 * is one `INPUT_UNREADABLE` line with the fix: a missing file that looks like `host:port` gets the
 * scheme hint, a directory or a permission problem is said as such.
 */
export async function readManifestFile(path: string, maxSizeInBytes: number): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(path, 'r');
    if ((await handle.stat()).isDirectory()) throw Object.assign(new Error('it is a directory'), { code: 'EISDIR' });
    // Read in chunks: a buffer as large as the cap would make a big `--max-size` an allocation failure.
    const limit = maxSizeInBytes + 1;
    const chunks: Uint8Array[] = [];
    let length = 0;
    while (length < limit) {
      const chunk = new Uint8Array(Math.min(READ_CHUNK_IN_BYTES, limit - length));
      const { bytesRead } = await handle.read(chunk, 0, chunk.byteLength, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      length += bytesRead;
    }
    return Buffer.concat(chunks, length);
  } catch (error) {
    throw new AicapError('INPUT_UNREADABLE', `Cannot read ${terminalSafeText(path)}: ${fileErrorReason(path, error)}.`, { cause: error });
  } finally {
    await handle?.close();
  }
}

/** Why a file could not be read, with what to do, for `Cannot read <path>: <reason>.` */
export function fileErrorReason(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') {
    // `127.0.0.1:3917` or `localhost:3000/x` was meant as an address, not a file name.
    return /^[\w.-]+:\d+(?:\/|$)|^\[[\d:a-fA-F]+\]:\d+/.test(path) ? `no such file; for a server, add the scheme: http://${terminalSafeText(path)}` : 'no such file';
  }
  if (code === 'EISDIR') return 'it is a directory; give a manifest file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return terminalSafeText(error instanceof Error ? error.message : String(error));
}

/**
 * A hint when bytes that failed to parse as a manifest look like an OpenAPI or Swagger description
 * (YAML or JSON): those are turned into a manifest by `aicap generate`. Empty otherwise.
 */
export function openApiHint(source: string, bytes: Uint8Array): string {
  const head = new TextDecoder().decode(bytes.subarray(0, 4096));
  const looksLikeOpenApi = /(^|[\n{,])\s*["']?(openapi|swagger)["']?\s*:/.test(head) || /\.ya?ml$/i.test(source);
  return looksLikeOpenApi ? ` It looks like an OpenAPI description: run \`aicap generate ${terminalSafeText(source)} -o manifest.json\` to make one.` : '';
}
