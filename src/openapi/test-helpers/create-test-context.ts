import { createReferenceResolver } from '../reference-resolver.js';
import type { GeneratorWarning, TransformContext } from '../transform/transform-context.js';

/** The URL the test document lives at. */
export const TEST_DOCUMENT_URL = 'file:///api/openapi.json';

/** A transform context over one in-memory document (plus optional others), collecting warnings. */
export function createTestContext(document: unknown = {}, options: { dialect?: '3.0' | '3.1'; documents?: Record<string, unknown> } = {}): TransformContext & { warnings: GeneratorWarning[] } {
  const warnings: GeneratorWarning[] = [];
  const documents = new Map<string, unknown>([[TEST_DOCUMENT_URL, document], ...Object.entries(options.documents ?? {})]);
  return {
    resolver: createReferenceResolver(documents),
    dialect: options.dialect ?? '3.0',
    definitions: new Map(),
    definitionNames: new Set(),
    usedDefinitions: new Set(),
    warn: (warning) => warnings.push(warning),
    warnings,
  };
}
