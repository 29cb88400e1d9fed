// The fresh-process floor's HTTP request: Node's own `node:http` client (aicap's client sends its
// manifest requests through it too). A new process's first request of GitHub's 1 MB manifest cost
// about 19 ms of CPU through it against 38 through undici's `request`, which compiles and warms up
// its JavaScript and WebAssembly parser first; in a warm process undici's is the cheaper, so the warm
// floors use undici.
import { Agent, request } from 'node:http';

/** A connection pool for {@link nodeRequest}: connections kept alive, as a client's are. */
export function createNodeAgent() {
  return new Agent({ keepAlive: true });
}

/**
 * GET `url` through `agent` and read the whole body (an empty one for a 304).
 * @param {string} url
 * @param {{ agent: Agent, headers?: Record<string, string> }} options
 * @returns {Promise<{ statusCode: number, headers: import('node:http').IncomingHttpHeaders, bytes: Buffer }>}
 */
export function nodeRequest(url, { agent, headers = {} }) {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { agent, headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.once('end', () => resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks) }));
      response.once('error', reject);
    });
    outgoing.once('error', reject);
    outgoing.end();
  });
}
