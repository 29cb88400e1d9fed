import { loadOpenApiDependency } from './load-openapi-dependency.js';
import { OpenApiInvalidError } from './openapi-invalid-error.js';

/** `$ref: "swagger.yaml#/definitions/X"` inside swagger.yaml itself is `#/definitions/X`, which the converter understands. */
function localizeSelfReferences(root: Record<string, unknown>, rootUrl: string): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      stack.push(...value);
      continue;
    }
    const record = value as Record<string, unknown>;
    const reference = record['$ref'];
    if (typeof reference === 'string' && !reference.startsWith('#') && reference.includes('#')) {
      try {
        const target = new URL(reference, rootUrl);
        const fragment = target.hash;
        target.hash = '';
        if (target.href === rootUrl) record['$ref'] = fragment;
      } catch {
        // not a URI reference; the resolver reports it if it is used
      }
    }
    for (const child of Object.values(record)) if (typeof child === 'object' && child !== null) stack.push(child);
  }
}

const SWAGGER_SECTIONS: Record<string, string> = { definitions: 'schemas', parameters: 'parameters', responses: 'responses' };

/** Where a Swagger 2.0 pointer (`/definitions/X`) lives after conversion (`/components/schemas/X`). */
export function swaggerPointerToOpenApi(pointer: string): string {
  const match = /^\/(definitions|parameters|responses)(\/.*)$/.exec(pointer);
  return match ? `/components/${SWAGGER_SECTIONS[match[1]!]!}${match[2]!}` : pointer;
}

/** Converts a Swagger 2.0 root document to OpenAPI 3.0 with swagger2openapi (refs to other files are kept as they are). */
export async function convertSwaggerDescription(root: Record<string, unknown>, rootUrl: string, location: string): Promise<Record<string, unknown>> {
  localizeSelfReferences(root, rootUrl);
  // swagger2openapi (last release 2021) stays: its maintained successor (@scalar/openapi-upgrader) needs Node 22.
  const { default: swagger2openapi } = await loadOpenApiDependency('swagger2openapi', 'convert Swagger 2.0', () => import('swagger2openapi'));
  try {
    // Without `text` the converter renders the whole description as YAML first (1.8 s for Kubernetes),
    // only to keep it in `options.text`, which nothing reads when converting an object.
    const converted = await swagger2openapi.convertObj(root as never, { patch: true, warnOnly: true, resolve: false, text: 'unused' } as never);
    return converted.openapi as unknown as Record<string, unknown>;
  } catch (error) {
    throw new OpenApiInvalidError(`cannot convert Swagger 2.0 to OpenAPI 3.0: ${(error as Error).message}`, { location, cause: error });
  }
}
