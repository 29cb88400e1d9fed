import { fromPointer } from '../internal/json-pointer.js';
import { displayLocation } from './load-openapi-description.js';
import { OpenApiInvalidError } from './openapi-invalid-error.js';

/** A value reached through zero or more `$ref`s, with the document it lives in. */
export interface Located<T = unknown> {
  /** The value. */
  value: T;
  /** URL of the document holding it: the base for `$ref`s inside it. */
  documentUrl: string;
  /** `documentUrl#pointer` of the last `$ref` followed; undefined when none was. */
  key: string | undefined;
}

/** Resolves `$ref`s lazily against already loaded documents. */
export interface ReferenceResolver {
  /** Resolves one reference string relative to `documentUrl`, one hop only (the target may itself be a `$ref`). */
  resolve(reference: string, documentUrl: string): Located;
  /**
  Follows `value.$ref` (and chains of them) if there is one; otherwise returns the value itself.
  A chain that loops (`a → b → a`) throws, or with `loop: 'empty'` ends at `{}` (a schema that
  only refers to itself constrains nothing).
  */
  follow<T = unknown>(value: unknown, documentUrl: string, options?: { loop?: 'throw' | 'empty' }): Located<T>;
}

// A chain of references longer than this is a loop (a → b → a) rather than a description.
const MAX_CHAIN = 64;

/** Options of {@link createReferenceResolver}. */
export interface ReferenceResolverOptions {
  /**
  Rewrites a pointer into a document before it is followed; used after a Swagger 2.0 root was
  converted, so that `#/definitions/Pet` from another file finds `#/components/schemas/Pet`.
  */
  rewritePointer?: (documentUrl: string, pointer: string) => string;
}

/** Creates a resolver over the documents of a loaded description. */
export function createReferenceResolver(documents: ReadonlyMap<string, unknown>, options: ReferenceResolverOptions = {}): ReferenceResolver {
  const rewrite = options.rewritePointer ?? ((_documentUrl: string, pointer: string) => pointer);
  // Operations share their parameters, responses and schemas: Kubernetes resolves the same few
  // hundred references about 40,000 times. The documents do not change once loaded, so each
  // (document, reference) pair is resolved once; failures are not kept and throw again.
  const resolved = new Map<string, Located>();
  const resolveOnce = (reference: string, documentUrl: string): Located => {
    const cacheKey = `${documentUrl}\n${reference}`;
    const known = resolved.get(cacheKey);
    if (known !== undefined) return known;
    const located = resolveUncached(reference, documentUrl);
    resolved.set(cacheKey, located);
    return located;
  };
  const resolveUncached = (reference: string, documentUrl: string): Located => {
    const hashIndex = reference.indexOf('#');
    const documentPart = hashIndex === -1 ? reference : reference.slice(0, hashIndex);
    const fragment = hashIndex === -1 ? '' : reference.slice(hashIndex + 1);
    let targetUrl = documentUrl;
    if (documentPart !== '') {
      const url = new URL(documentPart, documentUrl);
      url.hash = '';
      targetUrl = url.href;
    }
    const document = documents.get(targetUrl);
    if (document === undefined) {
      throw new OpenApiInvalidError(`"$ref": "${reference}" points at a document that was not loaded`, { location: displayLocation(documentUrl) });
    }
    let pointer: string;
    try {
      pointer = rewrite(targetUrl, decodeURIComponent(fragment));
    } catch {
      pointer = rewrite(targetUrl, fragment);
    }
    let value: unknown = document;
    for (const token of fromPointer(pointer)) {
      if (typeof value !== 'object' || value === null || !Object.hasOwn(value, token)) {
        throw new OpenApiInvalidError(`"$ref": "${reference}" cannot be resolved: "${token}" does not exist`, { location: displayLocation(documentUrl) });
      }
      value = (value as Record<string, unknown>)[token];
    }
    return { value, documentUrl: targetUrl, key: `${targetUrl}#${pointer}` };
  };

  const follow = <T>(value: unknown, documentUrl: string, options: { loop?: 'throw' | 'empty' } = {}): Located<T> => {
    let current: Located = { value, documentUrl, key: undefined };
    for (let step = 0; step < MAX_CHAIN; step++) {
      const reference = referenceOf(current.value);
      if (reference === undefined) return current as Located<T>;
      current = resolveOnce(reference, current.documentUrl);
    }
    if (options.loop === 'empty') return { ...current, value: {} } as Located<T>;
    throw new OpenApiInvalidError(`"$ref" chain longer than ${MAX_CHAIN} (a reference loop)`, { location: displayLocation(documentUrl) });
  };

  return {
    resolve: resolveOnce,
    follow,
  };
}

/** The `$ref` string of a Reference Object, if the value is one. @internal */
export function referenceOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const reference = (value as Record<string, unknown>)['$ref'];
  return typeof reference === 'string' ? reference : undefined;
}
