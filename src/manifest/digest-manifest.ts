import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { AicapError } from '../errors/aicap-error.js';
import type { Manifest, Tool } from './manifest-v0.js';

/**
 * The canonical JSON text of a value (RFC 8785 JSON Canonicalization Scheme): sorted keys, no
 * insignificant whitespace, ECMAScript number formatting. Equal documents give equal text whatever
 * their key order or formatting.
 */
export function canonicalJson(value: unknown): string {
  let text: string | undefined;
  try {
    text = canonicalize(value);
  } catch (error) {
    throw new AicapError('INVALID_OPTION', `Value cannot be canonicalized as JSON: ${(error as Error).message}`, { cause: error });
  }
  if (text === undefined) throw new AicapError('INVALID_OPTION', 'Value cannot be canonicalized as JSON: it is undefined or a function.');
  return text;
}

/** `sha256-<base64url>` of some text's UTF-8 bytes. */
export function digestText(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64url')}`;
}

/** Digest of a whole manifest: SHA-256 over its RFC 8785 canonical form, as `sha256-<base64url>`. Used as the strong ETag. */
export function digestManifest(manifest: Manifest | unknown): string {
  return digestText(canonicalJson(manifest));
}

/** Digest of one tool (or resource or prompt) definition; clients pin it on approval to detect rug pulls. */
export function digestTool(tool: Tool | unknown): string {
  return digestText(canonicalJson(tool));
}
