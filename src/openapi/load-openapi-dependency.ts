import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { AicapError } from '../errors/aicap-error.js';

/**
 * The packages only the OpenAPI generator needs. They are optional peers, so that installing aicap
 * for its client does not install a description validator, a Swagger 2.0 converter and a YAML parser.
 */
export const OPENAPI_PEER_DEPENDENCIES: readonly string[] = ['@readme/openapi-parser', 'swagger2openapi', 'yaml'];

/** The command that installs every OpenAPI peer at once, as `DEPENDENCY_MISSING` names it. @internal */
export const OPENAPI_PEER_INSTALL_COMMAND = `npm install ${OPENAPI_PEER_DEPENDENCIES.join(' ')}`;

const require = createRequire(import.meta.url);

function dependencyMissing(name: string, purpose: string, cause: unknown): AicapError {
  return new AicapError('DEPENDENCY_MISSING', `aicap/openapi needs the optional peer dependency ${name} to ${purpose}: run \`${OPENAPI_PEER_INSTALL_COMMAND}\`.`, { cause });
}

/**
 * Loads one of the generator's optional peers through `load` (a dynamic `import()` of a literal
 * specifier, so the bundlers and the type checker see it); `DEPENDENCY_MISSING` names the install
 * command when it is not installed. @internal
 */
export async function loadOpenApiDependency<T>(name: string, purpose: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isModuleNotFound(error)) throw dependencyMissing(name, purpose, error);
    throw error;
  }
}

/**
 * Throws `DEPENDENCY_MISSING` when `name` cannot be found, without loading it: for a dependency that
 * another thread loads (the validator runs in a worker, whose errors lose their code). @internal
 */
export function checkOpenApiDependency(name: string, purpose: string): void {
  try {
    require.resolve(name);
  } catch (error) {
    throw dependencyMissing(name, purpose, error);
  }
}

let yaml: typeof Yaml | undefined;

/**
 * The `yaml` package, loaded on the first YAML text (JSON needs none). Synchronous, because
 * `parseManifestOverlay` is; `yaml` ships a CommonJS build for `require`. @internal
 */
export function loadYaml(): typeof Yaml {
  try {
    yaml ??= require('yaml') as typeof Yaml;
    return yaml;
  } catch (error) {
    if (isModuleNotFound(error)) throw dependencyMissing('yaml', 'read YAML', error);
    throw error;
  }
}

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}
