import type { Link, Manifest, Tool } from '../../manifest/manifest-v0.js';
import { parseLinkExpression } from '../../manifest/parse-link-expression.js';
import { isRecord } from '../../internal/is-record.js';
import { InvalidArgumentsError } from './invalid-arguments-error.js';
import { validateToolArguments } from './validate-tool-arguments.js';

/** Most follow-ups one envelope offers (spec section 8.7): a list result does not turn into a list of calls without bound. */
export const MAX_FOLLOW_UPS = 20;

/**
 * A call a tool's links allow after this result, with the linked arguments filled from it (spec
 * section 8.7). Offered, never made: calling it is the agent's decision, and approval, budgets and
 * policy apply to it as to any call. The values come from the API's response: untrusted data.
 */
export interface FollowUp {
  /** Id of the tool to call. */
  tool: string;
  /** The linked arguments, filled; the tool's other parameters are the caller's to give. */
  arguments: Record<string, unknown>;
  /** The link's description, when it has one (untrusted text from the manifest). */
  description?: string;
}

/** A link that offers nothing for this result, and why. @internal */
export interface RefusedLink {
  /** Target tool id. */
  tool: string;
  /** Index of the link in the source tool's `links`. */
  link: number;
  /** The target parameter concerned. */
  parameter: string;
  /** The link expression, as declared. */
  expression: string;
  /** Why no value could be used: missing from the result, or failing the target's schema. */
  reason: string;
}

/** What {@link computeFollowUps} reads. @internal */
export interface FollowUpInput {
  /** The tool that was called. */
  tool: Pick<Tool, 'id' | 'links'>;
  /** Its manifest: the link targets are looked up there, and their schemas validate the values. */
  manifest: Manifest;
  /** The response body (the collected items for `allPages`). */
  data: unknown;
  /** The result's items, for `$item` expressions. */
  items: readonly unknown[] | undefined;
  /** The arguments the call was made with. */
  args: Readonly<Record<string, unknown>>;
}

/**
 * Evaluates the tool's links against one successful result (spec section 8.7): one follow-up per
 * link, or per item (in order, up to {@link MAX_FOLLOW_UPS} in all) when the link reads `$item`. A
 * link whose value is missing, or fails the target parameter's schema, is not offered; it is
 * returned among `refused` with the reason, so that `call(…, { from })` can say why. @internal
 */
export function computeFollowUps(input: FollowUpInput): { next: FollowUp[]; refused: RefusedLink[] } {
  const next: FollowUp[] = [];
  const refused: RefusedLink[] = [];
  const links = input.tool.links ?? [];
  links.forEach((link, index) => {
    const target = input.manifest.tools.find((tool) => tool.id === link.tool);
    if (target === undefined) return;
    const perItem = Object.values(link.parameters).some((expression) => expression.startsWith('$item#'));
    const sources = perItem ? (input.items ?? []) : [undefined];
    for (const item of sources) {
      if (next.length >= MAX_FOLLOW_UPS) return;
      const filled = fillLink(link, index, input, item);
      if ('refused' in filled) {
        refused.push(filled.refused);
        continue;
      }
      const problem = schemaProblem(target, filled.arguments, input.manifest);
      if (problem !== undefined) {
        refused.push({
          tool: link.tool,
          link: index,
          parameter: problem.parameter,
          expression: link.parameters[problem.parameter] ?? '',
          reason: `the value fails ${link.tool}'s schema: ${problem.message}`,
        });
        continue;
      }
      next.push({ tool: link.tool, arguments: filled.arguments, ...(link.description === undefined ? {} : { description: link.description }) });
    }
  });
  return { next, refused };
}

function fillLink(link: Link, index: number, input: FollowUpInput, item: unknown): { arguments: Record<string, unknown> } | { refused: RefusedLink } {
  const filled: Record<string, unknown> = {};
  for (const [parameter, text] of Object.entries(link.parameters)) {
    const expression = parseLinkExpression(text);
    const root = expression === undefined ? undefined : expression.source === 'result' ? input.data : expression.source === 'item' ? item : input.args;
    const value = expression === undefined ? undefined : readPointer(root, expression.tokens);
    if (value === undefined) {
      const reason =
        expression === undefined
          ? 'the expression is not a link expression'
          : `the ${expression.source === 'arguments' ? 'arguments have' : expression.source === 'item' ? 'item has' : 'result has'} no value at ${JSON.stringify(expression.pointer || '/')}`;
      return { refused: { tool: link.tool, link: index, parameter, expression: text, reason } };
    }
    filled[parameter] = value;
  }
  return { arguments: filled };
}

/** The value at a JSON Pointer's tokens, own members only (never a prototype's). */
function readPointer(root: unknown, tokens: readonly string[]): unknown {
  let current = root;
  for (const token of tokens) {
    if (Array.isArray(current)) current = /^(0|[1-9][0-9]*)$/.test(token) ? current[Number(token)] : undefined;
    else if (isRecord(current) && Object.hasOwn(current, token)) current = current[token];
    else return undefined;
  }
  return current;
}

/** The first problem the target's validator finds with a filled parameter (its other required parameters are the caller's business). */
function schemaProblem(target: Tool, filled: Record<string, unknown>, manifest: Manifest): { parameter: string; message: string } | undefined {
  try {
    validateToolArguments(target, filled, manifest);
    return undefined;
  } catch (error) {
    // An unusable target schema (TOOL_DISABLED) refuses the link rather than the call that succeeded.
    if (!(error instanceof InvalidArgumentsError)) return { parameter: Object.keys(filled)[0] ?? '', message: error instanceof Error ? error.message : String(error) };
    const problem = error.problems.find((candidate) => candidate.parameter !== undefined && Object.hasOwn(filled, candidate.parameter) && candidate.rule !== 'required');
    return problem?.parameter === undefined ? undefined : { parameter: problem.parameter, message: `${problem.pointer} ${problem.message}` };
  }
}
