const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }

/**
 * The names of a path's `{name}` placeholders in order, as `/\{([^{}]+)\}/g` finds them: a name is
 * one or more characters other than braces. A plain scan, because validation reads the path of every
 * tool of a manifest several times and a regular-expression iterator costs microseconds each.
 * @internal
 */
export function pathPlaceholders(path: string): string[] {
  const names: string[] = [];
  for (let open = path.indexOf('{'); open !== -1;) {
    let end = open + 1;
    while (end < path.length && path.charCodeAt(end) !== OPEN && path.charCodeAt(end) !== CLOSE) end++;
    if (end > open + 1 && path.charCodeAt(end) === CLOSE) {
      names.push(path.slice(open + 1, end));
      open = path.indexOf('{', end + 1);
    } else open = path.indexOf('{', open + 1);
  }
  return names;
}

/** Whether a path has a brace outside its placeholders, given how many it has (each holds one of each). @internal */
export function hasStrayBrace(path: string, placeholderCount: number): boolean {
  let braces = 0;
  for (let index = 0; index < path.length; index++) {
    const code = path.charCodeAt(index);
    if (code === OPEN || code === CLOSE) braces++;
  }
  return braces > 2 * placeholderCount;
}
