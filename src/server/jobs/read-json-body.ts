import { isJsonMediaType, mediaTypeOf } from '../../internal/parse-media-type.js';
import { readCappedBytes } from '../../internal/read-capped-bytes.js';
import { jobProblem } from './job-answers.js';

/**
 * The JSON body of a request, read up to `maxBytes`; or the problem answer to send instead: 415 for a
 * media type that is not JSON, 413 past the limit (reading stops there), 400 for text that is not JSON.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  if (!isJsonMediaType(mediaTypeOf(request.headers.get('Content-Type')))) {
    return jobProblem(415, 'Unsupported Media Type', 'unsupported_media_type', 'Send the answer as application/json.');
  }
  const { bytes, exceeded } = await readCappedBytes(request.body, maxBytes);
  if (exceeded) return jobProblem(413, 'Content Too Large', 'body_too_large', `The body must not exceed ${maxBytes} bytes.`);
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as unknown;
  } catch {
    return jobProblem(400, 'Bad Request', 'invalid_json', 'The body is not valid JSON.');
  }
}
