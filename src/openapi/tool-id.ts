import { createHash } from 'node:crypto';

const MAX_ID_LENGTH = 64;

/**
 * Turns an `operationId` (or, without one, the method and path) into a tool id that matches
 * `^[A-Za-z][A-Za-z0-9_-]{0,63}$`. Ids stay stable under regeneration: a long id is cut and suffixed
 * with a hash of the full name, and a collision is suffixed with a hash of the method and path,
 * never with a counter that depends on the order of operations.
 */
export function createToolIdAllocator(): (operationId: string | undefined, method: string, path: string) => string {
  const taken = new Set<string>();
  return (operationId, method, path) => {
    const base = sanitizeToolId(operationId ?? fallbackName(method, path));
    let id = base;
    if (taken.has(id)) id = withSuffix(base, shortHash(`${method.toUpperCase()} ${path}`));
    for (let attempt = 2; taken.has(id); attempt++) id = withSuffix(base, shortHash(`${method.toUpperCase()} ${path} ${attempt}`));
    taken.add(id);
    return id;
  };
}

/** Sanitizes any name to the tool id pattern (letters first, `[A-Za-z0-9_-]`, at most 64 characters). */
export function sanitizeToolId(name: string): string {
  let id = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[_-]+|[_-]+$/g, '');
  if (id === '') id = 'operation';
  if (!/^[A-Za-z]/.test(id)) id = `op_${id}`;
  return id.length <= MAX_ID_LENGTH ? id : withSuffix(id, shortHash(name));
}

function fallbackName(method: string, path: string): string {
  const segments = path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => segment.replace(/^\{(.+)\}$/, 'by_$1'));
  return [method.toLowerCase(), ...segments].join('_') || method.toLowerCase();
}

function withSuffix(base: string, suffix: string): string {
  return `${base.slice(0, MAX_ID_LENGTH - suffix.length - 1).replace(/[_-]+$/, '')}_${suffix}`;
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}
