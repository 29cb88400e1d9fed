import { AI_CATALOG_MEDIA_TYPE, readAiCatalog } from '../discover/read-ai-catalog.js';
import { mediaTypeOf } from '../../internal/parse-media-type.js';
import { MANIFEST_MEDIA_TYPE } from '../../manifest/manifest-v0.js';
import type { FetchFunction } from '../shapes/client-types.js';
import { describeError, type AddCheck } from './check-result.js';

const CATALOG_PATH = '/.well-known/ai-catalog.json';

/**
 * Checks the origin's AI Catalog when it has one (it is optional): served as
 * `application/ai-catalog+json`, every entry well formed (the draft's `type`, exactly one of `url`
 * and `data`), and listing the manifest being checked. No catalog is not a problem.
 * @internal
 */
export async function checkAiCatalog(manifestUrl: string, fetch: FetchFunction, add: AddCheck): Promise<void> {
  const url = new URL(CATALOG_PATH, manifestUrl).href;
  let answer: Response;
  try {
    answer = await fetch(url, { headers: { accept: `${AI_CATALOG_MEDIA_TYPE}, application/json;q=0.9` } });
  } catch (error) {
    add('catalog', 'warn', `GET ${url} failed: ${describeError(error)}`);
    return;
  }
  if (answer.status !== 200) {
    await answer.body?.cancel();
    add('catalog', 'skip', `no AI Catalog (${url} answered ${answer.status}); it is optional`);
    return;
  }
  let document: unknown;
  try {
    document = await answer.json();
  } catch {
    add('catalog', 'fail', `${url} is not JSON`);
    return;
  }
  const mediaType = mediaTypeOf(answer.headers.get('content-type'));
  const catalog = readAiCatalog(document, url);
  const listsManifest = catalog.entries.some((entry) => entry.type === MANIFEST_MEDIA_TYPE && entry.url === manifestUrl);
  const problems = [
    ...(mediaType === AI_CATALOG_MEDIA_TYPE ? [] : [`Content-Type is "${mediaType || 'missing'}", not ${AI_CATALOG_MEDIA_TYPE}`]),
    ...(catalog.specVersion === undefined ? ['no `specVersion`'] : []),
    ...catalog.problems,
    ...(listsManifest ? [] : [`no entry of type ${MANIFEST_MEDIA_TYPE} with url ${manifestUrl}`]),
  ];
  add(
    'catalog',
    problems.length === 0 ? 'pass' : 'warn',
    problems.length === 0 ? `${url} lists the manifest (${catalog.entries.length} entr${catalog.entries.length === 1 ? 'y' : 'ies'})` : `${url}: ${problems.slice(0, 5).join('; ')}`,
  );
}
