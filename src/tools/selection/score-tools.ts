import type { ParsedRequest } from './parse-request.js';
import { lowerBound, type IndexedTool, type ToolIndex } from './tool-index.js';

// Subword matches count less than the word itself: "star" finds "stargazer" (the request's word is a
// prefix of the tool's) and "stargazers" finds "star" (the other way round), below an exact match.
const PREFIX_OF_TOOL_TERM = 0.6;
const TOOL_TERM_IS_PREFIX = 0.5;
const MIN_PREFIX_LENGTH = 4;
const MAX_PREFIX_VARIANTS = 40;
// The action class decides between tools about the same thing: "add 'buy milk' to my list" creates.
const CLASS_MATCH = 1.5;
// A mismatch does not rule a tool out: the verb's class is a guess ("drop it" may delete or update), and
// at 0.6 it buried the right tool behind lookalikes more often than it kept a wrong one out (ablation in
// the commit that set 0.7: tuning r@5 0.891 → 0.893, round-3 blind tuning r@1 0.404 → 0.423).
const CLASS_MISMATCH = 0.7;
// A value after a noun ("issue 42") fits a tool with a parameter of that name (`issue_number`).
const PARAMETER_NOUN_MATCH = 1.25;
const MAX_PARAMETER_NOUN_MATCHES = 2;
const VALUE_KIND_MATCH = 1.1;
// The resource a tool acts on is what a request for it is about: a tool whose resource the request
// never mentions ("show issue 7" and List reactions for an issue) drops below those it does.
// The factor scales with the share of the resource's words mentioned ("workspaces" fits `/workspaces`
// fully and `/workspaces/{id}/workspace_memberships` half).
const OBJECT_NOT_MENTIONED = 0.75;
// "list my workspaces" wants the collection, not one workspace.
const ITEM_FOR_PLURAL = 0.85;
// "show the service frontend" and "delete pod worker-1" name one item: a read, change or delete of the
// whole collection fits less.
const COLLECTION_FOR_REFERENCE = 0.85;
// A resource the request names only after a preposition ("remove Dana from project 4545") is where the
// action happens, not what it acts on: it counts this share of a mention of the object itself.
const CONTEXT_CREDIT = 0.35;
// Each distinctive path word the request never mentions makes a tool more specific than what was asked:
// "delete the repository acme/scratch" is not about an org's teams (`/orgs/{org}/teams/…/repos/…`).
const CONTEXT_NOT_MENTIONED = 0.92;
const MIN_CONTEXT_FACTOR = 0.7;
// The weight of `intent.when` in the index, applied to `avoid_when` matches as well.
const AVOID_FIELD_WEIGHT = 2;

/** Lexical relevance of every tool of the index to a parsed request; 0 for tools nothing matched. */
export function scoreTools(index: ToolIndex, request: ParsedRequest, avoidPenalty: number): Float64Array {
  const scores = new Float64Array(index.tools.length);
  // Best value of the current term per tool; only the touched entries are read and reset.
  const best = new Float64Array(index.tools.length);
  const touched: number[] = [];
  for (const [term, weight] of request.terms) {
    for (const [variant, factor] of variantsOf(index, term)) {
      const inverseFrequency = (index.inverseFrequency.get(variant) ?? 0) * factor;
      const list = index.postings.get(variant) ?? [];
      for (let at = 0; at < list.length; at += 2) {
        const position = list[at]!;
        const value = inverseFrequency * list[at + 1]!;
        if (best[position] === 0) touched.push(position);
        if (value > best[position]!) best[position] = value;
      }
    }
    for (const position of touched) {
      scores[position]! += weight * best[position]!;
      best[position] = 0;
    }
    touched.length = 0;
  }
  const mentioned = new Map<string, number>();
  const mentionCredit = (term: string): number => {
    let answer = mentioned.get(term);
    if (answer === undefined) {
      answer = !mentions(request.terms.keys(), term) ? 0 : request.objectNouns.size === 0 || mentions(request.objectNouns, term) ? 1 : CONTEXT_CREDIT;
      mentioned.set(term, answer);
    }
    return answer;
  };
  for (const [position, tool] of index.tools.entries()) {
    if (scores[position]! <= 0) continue;
    if (tool.avoidTerms.size > 0 && avoidPenalty > 0) scores[position]! -= avoidPenalty * avoidScore(index, tool, request);
    if (scores[position]! > 0) scores[position]! *= structuralFactor(tool, request, mentionCredit);
  }
  return scores;
}

/** The term itself, tool terms it is a prefix of, and tool terms that are a prefix of it, with their factors. */
function variantsOf(index: ToolIndex, term: string): Array<[string, number]> {
  const variants: Array<[string, number]> = index.postings.has(term) ? [[term, 1]] : [];
  if (term.length < MIN_PREFIX_LENGTH) return variants;
  const sorted = index.sortedTerms;
  for (let position = lowerBound(sorted, term), taken = 0; position < sorted.length && taken < MAX_PREFIX_VARIANTS && sorted[position]!.startsWith(term); position++) {
    if (sorted[position] === term) continue;
    variants.push([sorted[position]!, PREFIX_OF_TOOL_TERM]);
    taken++;
  }
  for (let length = MIN_PREFIX_LENGTH; length < term.length; length++) {
    const prefix = term.slice(0, length);
    if (index.postings.has(prefix)) variants.push([prefix, TOOL_TERM_IS_PREFIX]);
  }
  return variants;
}

function avoidScore(index: ToolIndex, tool: IndexedTool, request: ParsedRequest): number {
  let total = 0;
  // A term only `avoid_when` uses is in no indexed field: it gets the weight of the rarest term.
  const rarest = Math.log(1 + (index.tools.length + 0.5) / 0.5);
  for (const [term, weight] of request.terms) if (tool.avoidTerms.has(term)) total += weight * (index.inverseFrequency.get(term) ?? rarest) * AVOID_FIELD_WEIGHT;
  return total;
}

/** Whether the request terms have the term, or a term that is a prefix of it or that it is a prefix of (4 letters at least). */
function mentions(requestTerms: Iterable<string>, term: string): boolean {
  for (const requestTerm of requestTerms) {
    if (requestTerm === term) return true;
    if (requestTerm.length >= MIN_PREFIX_LENGTH && term.length >= MIN_PREFIX_LENGTH && (term.startsWith(requestTerm) || requestTerm.startsWith(term))) return true;
  }
  return false;
}

/** Multiplier from the action class and from argument values that fit the tool's parameters. */
function structuralFactor(tool: IndexedTool, request: ParsedRequest, mentionCredit: (term: string) => number): number {
  let factor = 1;
  if (request.classes.length > 0) factor *= request.classes.includes(tool.actionClass) ? CLASS_MATCH : CLASS_MISMATCH;
  if (tool.objectTerms.length > 0) {
    const share = tool.objectTerms.reduce((sum, term) => sum + mentionCredit(term), 0) / tool.objectTerms.length;
    factor *= OBJECT_NOT_MENTIONED + (1 - OBJECT_NOT_MENTIONED) * share;
  }
  let contextFactor = 1;
  for (const term of tool.contextTerms) if (mentionCredit(term) === 0) contextFactor *= CONTEXT_NOT_MENTIONED;
  factor *= Math.max(contextFactor, MIN_CONTEXT_FACTOR);
  if (tool.itemEndpoint && request.parameterNouns.size === 0 && tool.objectTerms.some((term) => request.plurals.has(term))) factor *= ITEM_FOR_PLURAL;
  if (!tool.itemEndpoint && tool.actionClass !== 'create' && tool.objectTerms.some((term) => request.parameterNouns.has(term))) factor *= COLLECTION_FOR_REFERENCE;
  let nounMatches = 0;
  for (const noun of request.parameterNouns) {
    // Prefixes count: "user octocat" fits `username`, "issue 42" fits `issue_number`.
    if (nounMatches < MAX_PARAMETER_NOUN_MATCHES && tool.parameterText.includes(` ${noun}`)) {
      factor *= PARAMETER_NOUN_MATCH;
      nounMatches++;
    }
  }
  if (request.valueKinds.has('path') && tool.parameterKinds.has('path')) factor *= PARAMETER_NOUN_MATCH;
  for (const kind of request.valueKinds) if (kind !== 'path' && tool.parameterKinds.has(kind)) factor *= VALUE_KIND_MATCH;
  return factor;
}
