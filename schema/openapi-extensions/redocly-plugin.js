// A Redocly CLI plugin that checks the x-ai-* OpenAPI extensions (docs/spec.md section 11) against the
// JSON Schemas beside it, the same schemas the Spectral ruleset carries. In redocly.yaml:
//
//   plugins:
//     - ./node_modules/aicap/schema/openapi-extensions/redocly-plugin.js
//   extends:
//     - aicap/recommended
//
// or name the rules yourself: `aicap/x-ai-extensions` (a malformed value; error) and
// `aicap/x-ai-unknown` (an x-ai-* name on an operation that section 11 does not define; warn).
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';

const OPERATION_EXTENSIONS = ['x-ai-intent', 'x-ai-errors', 'x-ai-policy', 'x-ai-temporal', 'x-ai-resource', 'x-ai-exclude'];
const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head']);

let compiled;

/** The validators, compiled on first use: one per schema file. */
function validators() {
  if (compiled) return compiled;
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
  const load = (name) => ajv.compile(JSON.parse(readFileSync(new URL(`./${name}.schema.json`, import.meta.url), 'utf8')));
  compiled = {
    operation: { 'x-ai-intent': load('x-ai-intent'), 'x-ai-errors': load('x-ai-errors'), 'x-ai-policy': load('x-ai-policy-operation'), 'x-ai-temporal': load('x-ai-temporal'), 'x-ai-exclude': load('x-ai-exclude') },
    resource: load('x-ai-resource'),
    root: { 'x-ai-policy': load('x-ai-policy-root'), 'x-ai-prompts': load('x-ai-prompts') },
    securityScheme: { 'x-ai-provider-discovery': load('x-ai-provider-discovery') },
  };
  return compiled;
}

/** Reports each schema error of `node[name]`, at the member (or deeper, where ajv points). */
function check(validate, node, name, ctx) {
  if (node === null || typeof node !== 'object' || !(name in node) || validate(node[name])) return;
  // One report per place: a failed oneOf makes ajv explain every branch there.
  const byPointer = new Map();
  for (const error of validate.errors ?? []) {
    const detail = error.keyword === 'required' ? `${error.message} (${JSON.stringify(error.params.missingProperty)})` : error.message;
    const messages = byPointer.get(error.instancePath) ?? new Set();
    messages.add(detail);
    byPointer.set(error.instancePath, messages);
  }
  for (const [pointer, messages] of [...byPointer].slice(0, 20)) {
    const path = pointer.split('/').slice(1).map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
    ctx.report({
      message: `${name}${pointer} ${[...messages].join('; ')}: see schema/openapi-extensions and docs/spec.md section 11.`,
      location: ctx.location.child([name, ...path]),
    });
  }
}

function extensionsRule() {
  return {
    Root: {
      enter(root, ctx) {
        for (const [name, validate] of Object.entries(validators().root)) check(validate, root, name, ctx);
      },
    },
    Operation: {
      enter(operation, ctx) {
        for (const [name, validate] of Object.entries(validators().operation)) check(validate, operation, name, ctx);
        if (ctx.key === 'get') check(validators().resource, operation, 'x-ai-resource', ctx);
        else if ('x-ai-resource' in operation) ctx.report({ message: 'x-ai-resource is defined on GET operations only (docs/spec.md section 11).', location: ctx.location.child(['x-ai-resource']) });
      },
    },
    SecurityScheme: {
      enter(scheme, ctx) {
        for (const [name, validate] of Object.entries(validators().securityScheme)) check(validate, scheme, name, ctx);
      },
    },
  };
}

function unknownRule() {
  return {
    Operation: {
      enter(operation, ctx) {
        if (!METHODS.has(String(ctx.key))) return;
        for (const name of Object.keys(operation)) {
          if (name.startsWith('x-ai-') && !OPERATION_EXTENSIONS.includes(name)) {
            ctx.report({ message: `${name} is not an x-ai-* extension of docs/spec.md section 11 (a misspelling loses what it says).`, location: ctx.location.child([name]).key() });
          }
        }
      },
    },
  };
}

export default function aicapRedoclyPlugin() {
  const rules = { 'x-ai-extensions': extensionsRule, 'x-ai-unknown': unknownRule };
  return {
    id: 'aicap',
    rules: { oas3: rules, oas2: rules },
    configs: { recommended: { rules: { 'aicap/x-ai-extensions': 'error', 'aicap/x-ai-unknown': 'warn' } } },
  };
}
