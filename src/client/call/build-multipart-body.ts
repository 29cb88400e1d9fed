import { randomBytes } from 'node:crypto';
import type { Parameter } from '../../manifest/manifest-v0.js';
import { isJsonMediaType, mediaTypeOf } from '../../internal/parse-media-type.js';
import { isRecord } from '../../internal/is-record.js';
import { primitiveText, serialiseQueryParameter, UnserialisableValueError } from './serialize-parameter.js';

/** A `multipart/form-data` body as bytes and the `Content-Type` (with its boundary) that goes with it. */
export interface MultipartBody {
  /** The body. */
  bytes: Uint8Array;
  /** `multipart/form-data; boundary=…`. */
  contentType: string;
}

/** One field's failure, by field name. */
export interface MultipartProblem {
  /** The field. */
  name: string;
  /** What is wrong. */
  message: string;
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * Builds a `multipart/form-data` body (RFC 7578) from body fields. A field whose parameter declares a
 * `content_type` is a file part named after the field: its value is base64 (decoded to bytes) unless
 * the type is text or JSON (sent as it is). Other fields: strings, numbers and booleans as text
 * parts, arrays as one part per item (OpenAPI's rule), objects as `application/json` parts (OpenAPI's
 * default content type for an object) unless the field declares a `style`, which makes one text part
 * per pair it writes (`a[b]`). Problems are returned, never thrown, so all are reported.
 */
export function buildMultipartBody(fields: Record<string, unknown>, parameters: Readonly<Record<string, Parameter>>): { body: MultipartBody; problems: MultipartProblem[] } {
  const boundary = `aicap-${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  const problems: MultipartProblem[] = [];
  const part = (name: string, content: Buffer, contentType: string | undefined, isFile: boolean): void => {
    const disposition = `form-data; name="${quoteName(name)}"${isFile ? `; filename="${quoteName(name)}"` : ''}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${contentType === undefined ? '' : `Content-Type: ${contentType}\r\n`}\r\n`;
    chunks.push(Buffer.from(head, 'utf8'), content, Buffer.from('\r\n', 'utf8'));
  };
  for (const [name, value] of Object.entries(fields)) {
    const declared = parameters[name];
    const declaredType = declared?.content_type;
    try {
      if (declared?.style !== undefined) {
        // A declared style (Stripe's deepObject) makes one text part per pair: `file_link_data[create]`.
        for (const [pairName, pairValue] of serialiseQueryParameter(name, value, { style: declared.style, explode: declared.explode ?? declared.style === 'form' }))
          part(decodeURIComponent(pairName), Buffer.from(decodeURIComponent(pairValue), 'utf8'), undefined, false);
        continue;
      }
      if (declaredType !== undefined && !/[\r\n]/.test(declaredType)) {
        part(name, fileContent(value, declaredType), declaredType, true);
        continue;
      }
      for (const item of Array.isArray(value) ? value : [value]) {
        if (isRecord(item) || Array.isArray(item)) part(name, Buffer.from(JSON.stringify(item), 'utf8'), 'application/json', false);
        else part(name, Buffer.from(primitiveText(item), 'utf8'), undefined, false);
      }
    } catch (error) {
      problems.push({ name, message: error instanceof Error ? error.message : String(error) });
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
  return { body: { bytes: new Uint8Array(Buffer.concat(chunks)), contentType: `multipart/form-data; boundary=${boundary}` }, problems };
}

function fileContent(value: unknown, contentType: string): Buffer {
  const essence = mediaTypeOf(contentType);
  if (essence.startsWith('text/') || isJsonMediaType(essence)) {
    return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value), 'utf8');
  }
  if (typeof value !== 'string') throw new UnserialisableValueError(`is a file part (${contentType}): pass its bytes as a base64 string`);
  const compact = value.replace(/\s+/g, '');
  if (!BASE64.test(compact)) throw new UnserialisableValueError(`is a file part (${contentType}): its value must be base64-encoded bytes`);
  return Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64');
}

// RFC 7578 §4.2 and the HTML form encoding: quotes and line breaks in a field name are percent-encoded.
function quoteName(name: string): string {
  return name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
