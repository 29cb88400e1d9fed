// The aicap inspector's page. Every string that comes from a manifest, a response or the network is
// put into the page as a text node or an attribute value, never parsed as HTML: no innerHTML, no
// insertAdjacentHTML, no document.write anywhere in this file. The server's Content-Security-Policy
// forbids inline scripts and other origins besides.

const state = { view: undefined, selectedToolId: undefined };
const TABS = ['Overview', 'Tools', 'Raw JSON', 'Trust', 'Check', 'Catalog', 'Diff', 'Selection', 'Scopes'];

/** Creates an element; strings among `children` become text nodes. */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function setStatus(message, isError = false) {
  const status = document.getElementById('status');
  status.textContent = message;
  status.className = isError ? 'error' : '';
}

async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = await response.json().catch(() => ({ error: { message: `${response.status} ${response.statusText}` } }));
  if (!response.ok) throw new Error(answer.error?.message ?? `HTTP ${response.status}`);
  return answer;
}

// ---- JSON tree: built lazily (children on first open) so a 5 MB manifest renders at once ----

/** `openDepth` levels are built and opened at once (small answers read better expanded). */
function jsonTree(value, pointer = '', key = undefined, openDepth = 0) {
  const label = key === undefined ? [] : [el('span', { class: 'key' }, JSON.stringify(key)), ': '];
  if (value === null || typeof value !== 'object') return el('div', { class: 'leaf', 'data-pointer': pointer }, ...label, JSON.stringify(value));
  const entries = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
  const summary = el('summary', {}, ...label, Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`);
  const details = el('details', { 'data-pointer': pointer }, summary);
  let built = false;
  const build = () => {
    if (built) return;
    built = true;
    for (const [childKey, child] of entries)
      details.append(jsonTree(child, `${pointer}/${String(childKey).replaceAll('~', '~0').replaceAll('/', '~1')}`, Array.isArray(value) ? undefined : childKey, openDepth - 1));
  };
  details.addEventListener('toggle', build);
  details.buildChildren = build;
  if (openDepth > 0) {
    build();
    details.open = true;
  }
  return details;
}

/** Opens the tree along `pointer` and highlights its node. */
function revealPointer(root, pointer) {
  let node = root.querySelector('[data-pointer=""]') ?? root.firstElementChild;
  const tokens = pointer === '' ? [] : pointer.slice(1).split('/');
  let path = '';
  for (const token of tokens) {
    if (node?.tagName === 'DETAILS') {
      node.buildChildren?.();
      node.open = true;
    }
    path += `/${token}`;
    const next = root.querySelector(`[data-pointer="${CSS.escape(path)}"]`);
    if (!next) break;
    node = next;
  }
  for (const old of root.querySelectorAll('.highlight')) old.classList.remove('highlight');
  node?.classList.add('highlight');
  node?.scrollIntoView({ block: 'center' });
}

// ---- Views ----

function renderAll() {
  const nav = document.getElementById('tabs');
  const views = document.getElementById('views');
  nav.replaceChildren();
  views.replaceChildren();
  if (!state.view) return;
  const sections = {
    Overview: overviewView,
    Tools: toolsView,
    'Raw JSON': rawView,
    Trust: trustView,
    Check: checkView,
    Catalog: catalogView,
    Diff: diffView,
    Selection: selectionView,
    Scopes: scopesView,
  };
  for (const [index, name] of TABS.entries()) {
    const section = el('section', { id: `view-${index}`, hidden: index !== 0, 'aria-label': name });
    // A view leaves out what does not apply as null; appended, it would show as the text "null".
    section.append(...[sections[name]()].flat().filter((node) => node !== null));
    views.append(section);
    nav.append(el('button', { type: 'button', role: 'tab', 'aria-selected': index === 0 ? 'true' : 'false', 'data-tab': name, onclick: () => showTab(index) }, name));
  }
}

function showTab(index) {
  for (const [position, button] of [...document.querySelectorAll('#tabs button')].entries()) button.setAttribute('aria-selected', position === index ? 'true' : 'false');
  for (const [position, section] of [...document.querySelectorAll('#views section')].entries()) section.hidden = position !== index;
}

function overviewView() {
  const view = state.view;
  const manifest = typeof view.manifest === 'object' && view.manifest !== null ? view.manifest : {};
  const service = manifest.service ?? {};
  return [
    el('h2', {}, service.name ?? view.source),
    el('p', {}, service.description ?? ''),
    view.refused ? el('p', { class: 'bad', id: 'refused' }, `The client refused this manifest: ${view.refused.code}: ${view.refused.message}`) : null,
    el(
      'table',
      {},
      row('Source', view.source),
      row('base_url', service.base_url ?? ''),
      row('schema_version', manifest.schema_version ?? ''),
      row('Digest', view.trust?.digest ?? ''),
      row('Tools', `${(manifest.tools ?? []).length} declared, ${view.catalog?.tools.length ?? 0} in the catalog, ${view.catalog?.withheld.length ?? 0} withheld`),
      row('Resources, prompts', `${(manifest.resources ?? []).length}, ${(manifest.prompts ?? []).length}`),
      row('Validation', `${view.issues.filter((issue) => issue.severity === 'error').length} errors, ${view.issues.filter((issue) => issue.severity !== 'error').length} warnings (see Raw JSON)`),
    ),
  ];
}

function row(name, value) {
  return el('tr', {}, el('th', {}, name), el('td', {}, value));
}

function toolsView() {
  const tools = state.view.catalog?.tools ?? [];
  const detail = el('div', { id: 'tool-detail' }, el('p', { class: 'muted' }, 'Pick a tool.'));
  const list = el('div', { class: 'tool-list', id: 'tool-list' });
  const filter = el('input', { type: 'search', placeholder: `Filter ${tools.length} tools`, oninput: () => fill(filter.value.toLowerCase()) });
  const fill = (needle) => {
    const fragment = document.createDocumentFragment();
    for (const tool of tools) {
      if (needle && !`${tool.name} ${tool.path} ${tool.description}`.toLowerCase().includes(needle)) continue;
      fragment.append(
        el(
          'button',
          { type: 'button', class: 'tool-row', 'data-tool': tool.id, onclick: () => openTool(tool.id, detail) },
          el('span', { class: 'method' }, tool.method),
          ' ',
          el('strong', {}, tool.name),
          ' ',
          tool.readOnly ? el('span', { class: 'badge good' }, 'read-only') : el('span', { class: 'badge warn' }, 'consequential'),
          tool.needsApproval ? el('span', { class: 'badge bad' }, 'approval') : null,
          tool.async ? el('span', { class: 'badge' }, 'async job') : null,
          tool.deprecated ? el('span', { class: 'badge' }, 'deprecated') : null,
          el('span', { class: 'description' }, tool.description),
        ),
      );
    }
    list.replaceChildren(fragment);
  };
  fill('');
  return el('div', {}, filter, el('div', { class: 'tools' }, list, detail));
}

async function openTool(toolId, container) {
  for (const button of document.querySelectorAll('.tool-row')) button.setAttribute('aria-current', button.dataset.tool === toolId ? 'true' : 'false');
  container.replaceChildren(el('p', { class: 'muted' }, 'Loading…'));
  let tool;
  try {
    tool = await api('/api/tool', { toolId });
  } catch (error) {
    container.replaceChildren(el('p', { class: 'bad' }, error.message));
    return;
  }
  const definition = tool.definition;
  const intent = definition.intent ?? {};
  const parameters = Object.entries(definition.parameters ?? {});
  const errors = Object.entries(definition.errors ?? {});
  container.replaceChildren(
    el('h2', {}, tool.summary.name),
    el('p', {}, el('span', { class: 'method' }, definition.method), ' ', definition.path),
    el('p', {}, definition.description ?? ''),
    el('h3', {}, 'Intent'),
    el('table', {}, row('when', intent.when ?? '—'), row('prerequisites', intent.prerequisites ?? '—'), row('avoid when', intent.avoid_when ?? '—')),
    el('h3', {}, 'Parameters'),
    parameters.length === 0
      ? el('p', { class: 'muted' }, 'none')
      : el(
          'table',
          {},
          el('tr', {}, el('th', {}, 'name'), el('th', {}, 'type'), el('th', {}, 'in'), el('th', {}, 'required'), el('th', {}, 'description')),
          ...parameters.map(([name, parameter]) =>
            el(
              'tr',
              {},
              el('td', {}, name),
              el('td', {}, parameter.type ?? ''),
              el('td', {}, parameter.in ?? ''),
              el('td', {}, parameter.required ? 'yes' : ''),
              el('td', {}, parameter.description ?? ''),
            ),
          ),
        ),
    el('h3', {}, 'Returns'),
    el('div', { class: 'json' }, jsonTree(definition.returns ?? null)),
    el('h3', {}, 'Errors'),
    errors.length === 0
      ? el('p', { class: 'muted' }, 'none declared')
      : el(
          'table',
          {},
          ...errors.map(([name, error]) => el('tr', {}, el('td', {}, name), el('td', {}, String(error.status ?? '')), el('td', {}, error.retry_strategy ?? ''), el('td', {}, error.context ?? ''))),
        ),
    el('h3', {}, 'Scopes and policy'),
    el(
      'p',
      {},
      `Scopes: ${tool.scopes.length ? tool.scopes.join(', ') : 'none (open to any credential)'}. ${tool.summary.needsApproval ? 'Needs human approval.' : ''} ${(tool.policy.redact_from_logs ?? []).length ? `Redacted from logs: ${tool.policy.redact_from_logs.join(', ')}.` : ''}`,
    ),
    tryItForm(tool),
  );
}

// ---- Try it: a form from the arguments schema ----

function tryItForm(tool) {
  const schema = tool.inputSchema ?? { properties: {} };
  const properties = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const inputs = properties.map(([name, property]) => ({ name, property, input: inputFor(name, property) }));
  const output = el('div', { id: 'call-output' });
  const form = el(
    'form',
    { id: 'try-it', onsubmit: (event) => void submit(event) },
    el(
      'fieldset',
      {},
      el('legend', {}, 'Try it'),
      ...inputs.map(({ name, property, input }) =>
        el('label', { class: 'field' }, el('span', {}, `${name}${required.has(name) ? ' *' : ''} `, el('small', { class: 'muted' }, property.description ?? '')), input),
      ),
    ),
    el('button', { type: 'submit', id: 'call-button' }, tool.summary.async ? 'Start job' : 'Call'),
  );
  async function submit(event) {
    event.preventDefault();
    let args;
    try {
      args = collectArguments(inputs);
    } catch (error) {
      output.replaceChildren(el('p', { class: 'bad' }, error.message));
      return;
    }
    output.replaceChildren(el('p', { class: 'muted' }, 'Calling…'));
    try {
      if (tool.summary.async) await runJob(tool.summary.id, args, output);
      else await runCall(tool.summary.id, args, output);
    } catch (error) {
      output.replaceChildren(el('p', { class: 'bad' }, error.message));
    }
  }
  return el('div', {}, form, output);
}

function inputFor(name, property) {
  const type = Array.isArray(property.type) ? property.type.find((candidate) => candidate !== 'null') : property.type;
  if (Array.isArray(property.enum))
    return el('select', { name, 'data-kind': 'enum' }, el('option', { value: '' }, '(unset)'), ...property.enum.map((value) => el('option', { value: JSON.stringify(value) }, String(value))));
  if (type === 'boolean')
    return el('select', { name, 'data-kind': 'json' }, el('option', { value: '' }, '(unset)'), el('option', { value: 'true' }, 'true'), el('option', { value: 'false' }, 'false'));
  if (type === 'integer' || type === 'number') return el('input', { name, type: 'number', step: type === 'integer' ? '1' : 'any', 'data-kind': 'number' });
  if (type === 'string') return el('input', { name, type: 'text', 'data-kind': 'string', placeholder: property.format ?? '' });
  return el('textarea', { name, 'data-kind': 'json', placeholder: 'JSON' });
}

function collectArguments(inputs) {
  const args = {};
  for (const { name, input } of inputs) {
    const raw = input.value;
    if (raw === '') continue;
    const kind = input.dataset.kind;
    if (kind === 'string') args[name] = raw;
    else if (kind === 'number') args[name] = Number(raw);
    else {
      try {
        args[name] = JSON.parse(raw);
      } catch {
        throw new Error(`${name}: not valid JSON.`);
      }
    }
  }
  return args;
}

/** Asks the person through the modal dialog; resolves true only on an explicit "Approve". */
function confirmApproval(question) {
  const dialog = document.getElementById('approval');
  document.getElementById('approval-text').textContent = `${question.method} ${question.url}: ${question.reason}`;
  document.getElementById('approval-arguments').textContent = JSON.stringify(question.arguments, null, 2);
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'approve'), { once: true });
    dialog.returnValue = 'cancel';
    dialog.showModal();
  });
}

async function withApproval(path, body, output) {
  let answer = await api(path, { ...body, approved: false });
  if (answer.approvalRequired) {
    if (!(await confirmApproval(answer.approvalRequired))) {
      output.replaceChildren(el('p', { class: 'warn', id: 'declined' }, 'Declined: nothing was sent.'));
      return undefined;
    }
    answer = await api(path, { ...body, approved: true });
  }
  return answer;
}

async function runCall(toolId, args, output) {
  const answer = await withApproval('/api/call', { toolId, arguments: args }, output);
  if (!answer) return;
  const envelope = answer.envelope;
  output.replaceChildren(
    el(
      'p',
      { class: envelope.ok ? 'good' : 'bad', id: 'call-result' },
      envelope.ok ? `OK ${envelope.status}` : `Failed ${envelope.status ?? ''}: ${envelope.error?.code ?? ''} ${envelope.error?.userMessage ?? ''}`,
    ),
    el(
      'p',
      { class: 'muted' },
      `Attempts: ${envelope.meta?.attempts ?? 1} (retries are the attempts after the first), ${envelope.meta?.durationInMs ?? '?'} ms${envelope.page ? `; page: ${envelope.page.complete ? 'complete' : `more (next ${JSON.stringify(envelope.page.next)})`}` : ''}.`,
    ),
    el('h4', {}, 'Envelope (redacted)'),
    el('div', { class: 'json' }, jsonTree(envelope, '', undefined, 3)),
    el('h4', {}, 'Audit events'),
    el('div', { class: 'json' }, jsonTree(answer.audit)),
  );
}

async function runJob(toolId, args, output) {
  const answer = await withApproval('/api/jobs', { toolId, arguments: args }, output);
  if (!answer) return;
  const progress = el('progress', { max: '100', value: '0', id: 'job-progress' });
  const events = el('div', { class: 'events', id: 'job-events' });
  const question = el('div', { id: 'job-question' });
  const result = el('div', { id: 'job-result' });
  output.replaceChildren(el('p', {}, `Job ${answer.jobId}: `, progress), events, question, result);
  const source = new EventSource(`/api/jobs/events?id=${encodeURIComponent(answer.jobId)}`);
  source.onmessage = (message) => {
    const item = JSON.parse(message.data);
    if (item.kind === 'event') {
      const event = item.event;
      events.append(el('div', {}, `${event.type}${event.percent !== undefined ? ` ${event.percent}%` : ''}${event.status ? ` ${event.status}` : ''}${event.message ? `: ${event.message}` : ''}`));
      if (typeof event.percent === 'number') progress.value = event.percent;
      if (event.type === 'needs_input') askForInput(answer.jobId, event, question);
    } else if (item.kind === 'result') {
      result.replaceChildren(
        el('p', { class: item.envelope.ok ? 'good' : 'bad', id: 'job-done' }, item.envelope.ok ? 'Job result' : 'Job failed'),
        el('div', { class: 'json' }, jsonTree(item.envelope, '', undefined, 3)),
      );
    } else if (item.kind === 'error') {
      result.replaceChildren(el('p', { class: 'bad' }, `${item.code}: ${item.message}`));
    } else if (item.kind === 'end') {
      source.close();
    }
  };
}

function askForInput(jobId, event, container) {
  const send = async (answer) => {
    container.replaceChildren(el('p', { class: 'muted' }, 'Answer sent.'));
    try {
      await api('/api/jobs/respond', { jobId, answer });
    } catch (error) {
      container.replaceChildren(el('p', { class: 'bad' }, error.message));
    }
  };
  const options = Array.isArray(event.options) ? event.options : [];
  const free = el('input', { type: 'text', placeholder: 'answer' });
  container.replaceChildren(
    el('p', {}, el('strong', {}, 'The job asks: '), String(event.prompt ?? '')),
    options.length > 0
      ? el('div', {}, ...options.map((option) => el('button', { type: 'button', class: 'answer', onclick: () => void send(option) }, String(option))))
      : el('form', { onsubmit: (submitted) => (submitted.preventDefault(), void send(free.value)) }, free, el('button', { type: 'submit' }, 'Answer')),
  );
}

function rawView() {
  const view = state.view;
  const tree = el('div', { class: 'json', id: 'raw-json' }, typeof view.manifest === 'string' ? el('pre', {}, view.manifest) : jsonTree(view.manifest));
  const root = tree.firstElementChild;
  if (root?.tagName === 'DETAILS') {
    root.buildChildren();
    root.open = true;
  }
  const issues = view.issues.map((issue) =>
    el(
      'li',
      {},
      el('button', { type: 'button', class: 'issue', onclick: () => revealPointer(tree, issue.pointer) }, el('code', {}, issue.pointer || '/')),
      ' ',
      el('span', { class: issue.severity === 'error' ? 'bad' : 'warn' }, issue.severity),
      ` ${issue.code}: ${issue.message}`,
    ),
  );
  return [el('h2', {}, 'Validation issues'), issues.length ? el('ul', { id: 'issues' }, ...issues) : el('p', { class: 'good' }, 'No issues.'), el('h2', {}, 'Manifest'), tree];
}

function trustView() {
  const trust = state.view.trust;
  if (!trust) return el('p', { class: 'bad' }, `No trusted view: ${state.view.refused?.message ?? 'nothing loaded'}`);
  const bound = new URL(trust.baseUrl).origin === trust.origin;
  const catalog = state.view.catalog;
  return [
    el('h2', {}, 'Origin binding'),
    el('p', { class: bound ? 'good' : 'warn' }, `Manifest from ${trust.origin}; base_url ${trust.baseUrl}: ${bound ? 'same origin, bound' : 'another origin, allowed by configuration'}.`),
    el('h2', {}, 'Withheld tools'),
    catalog.withheld.length === 0
      ? el('p', { class: 'good' }, 'None.')
      : el(
          'table',
          { id: 'withheld' },
          ...catalog.withheld.map((entry) =>
            el('tr', {}, el('td', {}, entry.name), el('td', {}, entry.reason), el('td', {}, entry.findings.map((finding) => `${finding.code}: ${finding.message}`).join('; '))),
          ),
        ),
    el('h2', {}, 'Findings of the poisoning scan and pins'),
    trust.findings.length === 0
      ? el('p', { class: 'good' }, 'None.')
      : el(
          'table',
          { id: 'findings' },
          el('tr', {}, el('th', {}, 'severity'), el('th', {}, 'code'), el('th', {}, 'where'), el('th', {}, 'text')),
          ...trust.findings.map((finding) =>
            el(
              'tr',
              {},
              el('td', { class: finding.severity === 'high' ? 'bad' : 'warn' }, finding.severity),
              el('td', {}, finding.code),
              el('td', {}, el('code', {}, finding.pointer)),
              el('td', {}, finding.text),
            ),
          ),
        ),
    el('p', { class: 'muted' }, `Catalog warnings: ${catalog.warnings.join(' ') || 'none'}`),
  ];
}

function checkView() {
  const check = state.view.check;
  if (!check) return el('p', { class: 'muted' }, 'The check runs for origins, not files.');
  return [
    el('h2', {}, `aicap check ${check.url}: ${check.ok ? 'passed' : 'failed'}`),
    el(
      'table',
      { id: 'check' },
      ...check.checks.map((result) =>
        el('tr', {}, el('td', { class: result.outcome === 'fail' ? 'bad' : result.outcome === 'warn' ? 'warn' : 'good' }, result.outcome), el('td', {}, result.id), el('td', {}, result.message)),
      ),
    ),
  ];
}

function catalogView() {
  const document_ = state.view.aiCatalog;
  return [
    el('h2', {}, 'AI Catalog (/.well-known/ai-catalog.json)'),
    document_ === undefined || document_ === null ? el('p', { class: 'muted' }, 'This origin serves none.') : el('div', { class: 'json' }, jsonTree(document_)),
  ];
}

function diffView() {
  const output = el('div', { id: 'diff-output' });
  const other = el('textarea', { rows: '6', cols: '80', placeholder: 'Paste another manifest (JSON) to compare with the loaded one' });
  const show = (diff) => {
    output.replaceChildren(
      el('p', { id: 'diff-summary' }, `${diff.changes.length} changes; version bump: ${diff.bump}${diff.suggestedVersion ? ` (to ${diff.suggestedVersion})` : ''}.`),
      el(
        'table',
        {},
        ...diff.changes.map((change) =>
          el(
            'tr',
            {},
            el('td', { class: change.classification === 'breaking' ? 'bad' : change.classification === 'trust-sensitive' ? 'warn' : '' }, change.classification, change.weakened ? ' (weakened)' : ''),
            el('td', {}, `${change.kind} ${change.id ?? ''} ${change.change}`),
            el('td', {}, el('code', {}, change.newPointer ?? change.oldPointer ?? '')),
            el('td', {}, change.message),
          ),
        ),
      ),
    );
  };
  const run = async (body) => {
    try {
      show(await api('/api/diff', body));
    } catch (error) {
      output.replaceChildren(el('p', { class: 'bad' }, error.message));
    }
  };
  return [
    el('h2', {}, 'Diff'),
    el('button', { type: 'button', onclick: () => void run({ pinned: true }) }, 'Against the pinned manifest (first load)'),
    el('div', {}, other),
    el('button', { type: 'button', onclick: () => void run({ manifestText: other.value }) }, 'Against the pasted manifest'),
    output,
  ];
}

function selectionView() {
  const output = el('div', { id: 'selection-output' });
  const query = el('input', { type: 'search', size: '60', placeholder: 'What the user asks, e.g. "show unusual transactions on account 12345"' });
  const form = el(
    'form',
    {
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          const answer = await api('/api/select', { query: query.value, limit: 5 });
          output.replaceChildren(
            el('p', {}, `Top ${answer.ranked.length}: ${answer.tokens.selected} tokens instead of ${answer.tokens.all} for the whole list${answer.tokens.approximate ? ' (approximate)' : ''}.`),
            answer.ranked.length === 0
              ? el('p', { class: 'warn' }, 'No tool matched: rephrase, or hand the model the whole list.')
              : el(
                  'table',
                  {},
                  el('tr', {}, el('th', {}, '#'), el('th', {}, 'tool'), el('th', {}, 'score'), el('th', {}, 'tokens')),
                  ...answer.ranked.map((entry, index) =>
                    el('tr', {}, el('td', {}, String(index + 1)), el('td', {}, entry.name), el('td', {}, entry.score.toFixed(3)), el('td', {}, String(entry.tokens))),
                  ),
                ),
          );
        } catch (error) {
          output.replaceChildren(el('p', { class: 'bad' }, error.message));
        }
      },
    },
    query,
    el('button', { type: 'submit' }, 'Rank tools'),
  );
  return [el('h2', {}, 'Tool selection'), form, output];
}

function scopesView() {
  const output = el('div', { id: 'scopes-output' });
  const declared = Object.keys(state.view.manifest?.auth?.scopes ?? {});
  const input = el('input', { type: 'text', size: '40', placeholder: declared.join(' ') || 'no scopes declared' });
  const form = el(
    'form',
    {
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          const answer = await api('/api/scopes', { scopes: input.value.split(/[\s,]+/).filter(Boolean) });
          output.replaceChildren(el('p', {}, `Unlocked: ${answer.unlocked.join(', ') || 'none'}`), el('p', { class: 'muted' }, `Still locked: ${answer.locked.join(', ') || 'none'}`));
        } catch (error) {
          output.replaceChildren(el('p', { class: 'bad' }, error.message));
        }
      },
    },
    el('label', {}, 'Scopes the token holds ', input),
    el('button', { type: 'submit' }, 'Show tools'),
  );
  return [el('h2', {}, 'What a token unlocks'), form, output];
}

// ---- Start ----

async function load(source, token) {
  setStatus(`Loading ${source}…`);
  try {
    const view = await api('/api/load', { source, token });
    state.view = view;
    renderAll();
    setStatus(view.refused ? `Loaded with problems: ${view.refused.message}` : `Loaded ${view.catalog?.tools.length ?? 0} tools.`, Boolean(view.refused));
  } catch (error) {
    setStatus(error.message, true);
  }
}

document.getElementById('load-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void load(document.getElementById('source').value, document.getElementById('token').value);
});

const startedAt = performance.now();
api('/api/view').then(
  ({ view }) => {
    if (!view) return setStatus('Type an origin to inspect.');
    state.view = view;
    document.getElementById('source').value = /^https?:/.test(view.source) ? view.source : '';
    renderAll();
    // Reported by the browser test: the first render of the loaded service.
    document.body.dataset.firstRenderInMs = String(Math.round(performance.now() - startedAt));
    setStatus(view.refused ? `Loaded with problems: ${view.refused.message}` : `Loaded ${view.catalog?.tools.length ?? 0} tools.`, Boolean(view.refused));
  },
  (error) => setStatus(error.message, true),
);
