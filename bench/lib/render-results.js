// Renders `bench/results.json` as `bench/RESULTS.md` and the README's headline table. Every figure
// and every sentence with a figure comes from the results object of the run that wrote them: there
// is no hand-written analysis to go stale.

/** The target keys: what each divides, the target, and which direction meets it. */
export const RATIO_TARGETS = {
  discovery_cold_vs_floor: { label: 'Payments cold discovery time ÷ floor time, first contact', maximum: 1.8 },
  discovery_cold_vs_floor_cpu: { label: 'the same by client + server CPU time', maximum: 1.8 },
  discovery_known_vs_floor: { label: 'Payments discovery time ÷ floor time, manifest already verified (verified-manifest cache)', maximum: 1.5 },
  revalidation_client_us: { label: 'client CPU over the floor per 304 revalidation, Payments, µs, steady state (after 4,000 more warm-up rounds of both)', maximum: 100 },
  call_client_us: { label: 'client CPU over the floor per `client.call`, Payments, µs, steady state (after 4,000 more warm-up rounds of both)', maximum: 100 },
  revalidation_client_first_calls_us: { label: 'the same per 304, measured right after 100 warm-up rounds (V8 still optimising the client)' },
  call_client_first_calls_us: { label: 'the same per call, measured right after 200 warm-up rounds (V8 still optimising the client)' },
  revalidation_vs_floor: { label: 'Payments 304 revalidation time ÷ floor conditional GET time (a loopback ratio of fixed costs: the target is `revalidation_client_us`)' },
  call_vs_floor: { label: 'Payments `client.call` time ÷ bare request + parse time (the target is `call_client_us`)' },
  discovery_cold_vs_mcp: { label: 'MCP `connect` + `listTools` time ÷ aicap cold discovery time, Payments', minimum: 3 },
  big_discovery_cold_vs_mcp: { label: 'MCP `connect` + `listTools` time ÷ aicap cold discovery time, GitHub, same tools, first contact', minimum: 1.2 },
  big_discovery_cold_vs_mcp_cpu: { label: 'the same by client + server CPU time', minimum: 1.2 },
  big_discovery_known_vs_mcp: { label: 'the same, manifest already verified (verified-manifest cache)', minimum: 1.8 },
  big_discovery_known_vs_mcp_cpu: { label: 'the same by client + server CPU time', minimum: 1.8 },
  fresh_process_discovery_vs_mcp: { label: 'MCP ÷ aicap, client CPU of the first discovery in a new process, GitHub', minimum: 1.5 },
  fresh_process_discovery_known_vs_mcp: {
    label: "the same, the new process's client on the file store of `aicap/node` holding the manifest's verified record from an earlier process (manifest downloaded again)",
    minimum: 1.5,
  },
  fresh_process_import_and_discovery_vs_mcp: {
    label:
      "the same with each client's module load counted (importing the client, then the first discovery or `connect` + `listTools`): aicap's validators load with the client, since the exports that validate an entry where it is used are synchronous",
  },
  fresh_process_discovery_vs_mcp_most: {
    label:
      'MCP ÷ (the floor request + `parseManifest`), client CPU in a new process, GitHub: the most `fresh_process_discovery_vs_mcp` can be while the strict read and validation run on first contact',
  },
  fresh_process_strict_read_vs_mcp: {
    label:
      'MCP ÷ (the floor request + the strict read alone), client CPU in a new process, GitHub: the most any client can reach on first contact while it rejects what section 2 of the specification makes it reject, however it defers validation',
  },
  fresh_process_floor_vs_mcp: { label: 'MCP ÷ the floor (a bare request + `JSON.parse`), client CPU in a new process, GitHub: the most any client can reach' },
  first_turn_vs_mcp: { label: 'MCP connect + list + convert all ÷ aicap discover + select 5 + export, GitHub, fresh client, wall', minimum: 1 },
  first_turn_vs_mcp_cpu: { label: 'the same by client + server CPU time', minimum: 1 },
  first_turn_known_vs_mcp: { label: 'the same, GitHub, new client on a store an earlier process left the verdicts and the selection index in (manifest downloaded again), wall' },
  first_turn_known_vs_mcp_cpu: { label: 'the same by client + server CPU time' },
  first_turn_tokens_fewer: { label: "tokens of that MCP tool list ÷ tokens of aicap's 5, GitHub", minimum: 50 },
  first_turn_tokens_fewer_requests: { label: "the same for each held-out request of the selection evaluation (GitHub's), median", minimum: 50 },
  first_turn_stripe_vs_mcp: { label: 'first turn as above, Stripe, wall', minimum: 1 },
  first_turn_stripe_vs_mcp_cpu: { label: 'the same by client + server CPU time', minimum: 1 },
  first_turn_stripe_tokens_fewer: { label: 'tokens, MCP ÷ aicap, Stripe', minimum: 50 },
  first_turn_stripe_tokens_fewer_requests: { label: "the same for each held-out request of the selection evaluation (Stripe's), median", minimum: 50 },
  first_turn_stripe_known_vs_mcp: { label: 'first turn, Stripe, store holding the verdicts and the index, wall' },
  first_turn_stripe_known_vs_mcp_cpu: { label: 'the same by client + server CPU time' },
  serve_per_agent_vs_mcp: { label: 'server CPU per discovering agent, MCP (initialize + initialized + tools/list) ÷ aicap (one GET), GitHub', minimum: 10 },
  cli_version_vs_node: { label: '`aicap --version` ÷ `node -e 0`, whole process', maximum: 1.5 },
  cli_call_cached_vs_node: { label: 'cached `aicap call` ÷ `node -e 0`, whole process', maximum: 3 },
  big_cache_hit_ms: { label: 'GitHub `client.discover` within max-age, ms', maximum: 1 },
  serve_vs_static: { label: 'manifest route requests/s ÷ same-bytes static route with ETag, worst of four frameworks', minimum: 0.95 },
  serve_vs_static_cpu: { label: "the same by server CPU per request (the static route's ÷ aicap's), worst of four frameworks", minimum: 0.95 },
  serve_static_control: {
    label:
      'static route requests/s ÷ the same static route in a second process, Fastify, rounds as `serve_vs_static`: an A/A control, 1 on an ideal machine (how far it strays is what the machine can resolve)',
  },
  serve_vs_mcp: { label: 'Express manifest route (`app.use`) requests/s ÷ fastest MCP `tools/list` requests/s (bounded by `serve_express_floor_vs_mcp`)' },
  serve_static_control_cpu: { label: 'the A/A control by server CPU per request' },
  serve_vs_mcp_cpu: { label: "the same by server CPU per request (MCP's ÷ aicap's)" },
  kubernetes_discovery_cold_ms: { label: 'Kubernetes cold discovery in a fresh process, ms', maximum: 1000 },
  kubernetes_discovery_rss_mib: { label: 'Kubernetes cold discovery, peak RSS of the process, MiB', maximum: 300 },
  discovery_cold_vs_floor_least: { label: "(floor + the checks' median) ÷ floor, Payments: the least `discovery_cold_vs_floor` can be while every check runs (ratio of medians)" },
  discovery_cold_vs_mcp_most: {
    label: "fastest MCP `connect` + `listTools` ÷ (floor + the checks' median), Payments: the most `discovery_cold_vs_mcp` can be while every check runs (ratio of medians)",
  },
  big_discovery_cold_vs_mcp_most: {
    label: "fastest MCP `connect` + `listTools` ÷ (floor + the checks' median), GitHub: the most `big_discovery_cold_vs_mcp` can be while every check runs (ratio of medians)",
  },
  revalidation_vs_mcp: { label: 'MCP second `listTools` time ÷ aicap 304 revalidation time, Payments' },
  call_vs_mcp: { label: 'MCP `callTool` time ÷ aicap `client.call` time, Payments' },
  serve_express_floor_vs_mcp: { label: 'Express floor (one `app.use` writing the same answer) requests/s ÷ fastest MCP `tools/list` requests/s: the most `serve_vs_mcp` can be' },
  serve_express_floor_vs_mcp_cpu: { label: "the same by server CPU per request (MCP's ÷ the floor's)" },
  serve_express_vs_floor: { label: 'Express manifest route requests/s ÷ Express floor requests/s', minimum: 0.95 },
  serve_express_vs_floor_cpu: { label: "the same by server CPU per request (the floor's ÷ aicap's)", minimum: 0.95 },
  serve_node_vs_mcp: { label: 'node:http manifest route requests/s ÷ fastest MCP `tools/list` on node:http requests/s', minimum: 5 },
  serve_node_vs_mcp_cpu: { label: "the same by server CPU per request (MCP's ÷ aicap's)", minimum: 5 },
  serve_express_listener_vs_mcp: { label: 'Express app with the manifest answered in front of it (`withAiCapabilities`) requests/s ÷ fastest MCP `tools/list` on Express requests/s', minimum: 5 },
  serve_express_listener_vs_mcp_cpu: { label: "the same by server CPU per request (MCP's ÷ aicap's)", minimum: 5 },
};

/** @returns {{ key: string, label: string, value?: number, p25?: number, p75?: number, against?: string, target: string, met: boolean | undefined }[]} */
export function assessTargets(ratios) {
  return Object.entries(RATIO_TARGETS).map(([key, target]) => {
    const ratio = ratios[key];
    const value = ratio?.median;
    const spread = ratio?.p25 === undefined ? {} : { p25: ratio.p25, p75: ratio.p75 };
    const base = { key, label: target.label, value, ...spread, ...(ratio?.against ? { against: ratio.against } : {}) };
    if (value === undefined) return { ...base, target: targetText(target), met: undefined };
    if (target.maximum !== undefined) return { ...base, target: targetText(target), met: value <= target.maximum };
    if (target.minimum !== undefined) return { ...base, target: targetText(target), met: value >= target.minimum };
    return { ...base, target: 'none', met: undefined };
  });
}

function targetText(target) {
  if (target.maximum !== undefined) return `≤ ${target.maximum}`;
  if (target.minimum !== undefined) return `≥ ${target.minimum}`;
  return 'none';
}

const figure = (row) => (row.value === undefined ? 'not measured' : `${row.value.toFixed(2)}${row.p25 === undefined ? '' : ` (${row.p25.toFixed(2)}–${row.p75.toFixed(2)})`}`);
const verdict = (row) => (row.met === undefined ? '—' : row.met ? '✔' : '✘');

/** The README's headline table, between `<!-- bench:headline:start -->` and `<!-- bench:headline:end -->`. */
export function renderReadmeHeadline(results) {
  const rows = assessTargets(results.ratios);
  return [
    `From the committed run (${results.date.slice(0, 10)}, ${results.machine.cores}-core ${results.machine.cpuModel}, Node ${results.machine.node.replace(/^v/, '')}); median (p25–p75) of paired rounds:`,
    '',
    '| key | what | value | target | met |',
    '|---|---|---:|---:|:---:|',
    ...rows.map((row) => `| \`${row.key}\` | ${row.label} | ${figure(row)} | ${row.target} | ${verdict(row)} |`),
    '',
    ...readingOf(results),
  ].join('\n');
}

export function renderResults(results) {
  const lines = [];
  const add = (...text) => lines.push(...text);
  add(
    '# aicap benchmarks',
    '',
    `Generated by \`npm run bench\` on ${results.date} in ${results.durationInSeconds} s. Do not edit by hand: re-run it. Raw figures: [results.json](results.json).`,
    '',
    '## Machine',
    '',
    `${results.machine.cpuModel}, ${results.machine.cores} cores, ${results.machine.memoryInGiB} GiB, ${results.machine.os}, Node ${results.machine.node}. One-minute load average ${results.loadAverage.atStart} at the start, ${results.loadAverage.atEnd} at the end (${results.machine.cores} means fully busy; the end counts the bench's own processes)${results.otherCpuShare === undefined ? '' : `; other processes used ${(results.otherCpuShare * 100).toFixed(1)} % of the CPU during the run`}.`,
    '',
    `Packages: ${Object.entries(results.packages)
      .map(([name, version]) => `${name} ${version}`)
      .join(', ')}.`,
    '',
    '## Targets',
    '',
    'Median (p25–p75) of per-round ratios. Each baseline is the strongest in the run: the floor, or the fastest of the four MCP modes, named in the last column.',
    '',
    '| key | what | value | target | met | against |',
    '|---|---|---:|---:|:---:|---|',
    ...assessTargets(results.ratios).map((row) => `| \`${row.key}\` | ${row.label} | ${figure(row)} | ${row.target} | ${verdict(row)} | ${row.against ?? ''} |`),
    '',
    '## Reading the figures',
    '',
    ...readingOf(results).map((line) => (line ? `- ${line}` : line)),
    '',
    '## How it is measured',
    '',
    ...results.method.map((line) => `- ${line}`),
    '',
    '## 1. Cold discovery (Payments)',
    '',
    ...latencyTable(results.discovery.rows, true),
    '',
    '## 2. Revalidation (Payments)',
    '',
    ...latencyTable(results.revalidation.rows, true),
    '',
    '## 3. One call (`list_transactions`, 20 items)',
    '',
    ...latencyTable(results.call.rows),
    '',
    '## 4. Scale: big real APIs',
    '',
    ...scaleSection(results.scale),
    '',
    '## 5. What the checks cost',
    '',
    ...checksSection(results),
    '',
    '## 6. Serving throughput',
    '',
    `autocannon, ${results.serve.settings.connections} connections, 127.0.0.1; ${results.serve.settings.rounds} interleaved rounds of ${results.serve.settings.burstInSeconds} s per target (every other round in reverse order, so a drift in load does not always favour the same side of a pair) after a ${results.serve.settings.warmupInSeconds} s warm-up; requests/s and latencies are medians over the rounds.`,
    '',
    '| target | requests/s | server CPU µs per request | p50 ms | p99 ms | requests | 200 share | errors | RSS at start → after, MiB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...results.serve.rows.map(
      (row) =>
        `| ${row.name} | ${row.requestsPerSecond} | ${row.serverCpuPerRequestInUs ?? '—'} | ${row.latencyP50InMs} | ${row.latencyP99InMs} | ${row.requests} | ${row.okShare} | ${row.errors} | ${row.rssAtStartInMiB} → ${row.rssAfterInMiB} |`,
    ),
    '',
    '| framework | aicap ÷ static, requests/s (rounds of aicap, static, static, aicap) | static ÷ aicap, server CPU per request | rounds | answers 200 | errors |',
    '|---|---:|---:|---:|---:|---:|',
    ...[...results.serve.perFramework, ...(results.serve.control ? [{ ...results.serve.control, key: 'A/A control: static ÷ the same static route, second process (Fastify)' }] : [])].map(
      (entry) => `| ${entry.key} | ${spreadText(entry.ratio)} | ${entry.cpuRatio ? spreadText(entry.cpuRatio) : '—'} | ${entry.ratio.rounds} | ${entry.okShare ?? '—'} | ${entry.errors ?? '—'} |`,
    ),
    '',
    '## 7. Generator (largest corpus descriptions)',
    '',
    ...generatorSection(results.generator),
    '',
    '## 8. Tokens of the tool list (`o200k_base`) and selection cost',
    '',
    ...tokensSection(results.tokens),
    '',
    ...selectionSection(results.selection),
    '',
    ...livenessSection(results.liveness),
  );
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}

/** The poisoning scan's time beside the checks' total: inside it, or on top of it where a default discovery leaves the scan to export. */
function scanShare(checks) {
  const scan = checks.phases.find((phase) => phase.key === 'scanInMs');
  return scan.inChecks === false ? ` (the poisoning scan, on export by default, ${scan.median.toFixed(1)} more)` : ` (the poisoning scan ${scan.median.toFixed(1)})`;
}

/** Sentences computed from this run's figures (what the targets mean, where the time goes). */
function readingOf(results) {
  const lines = [];
  const [aicap, floor] = results.discovery.rows;
  lines.push(
    `Payments cold discovery: aicap ${aicap.medianInMs.toFixed(3)} ms, the floor ${floor.medianInMs.toFixed(3)} ms; the difference (${(aicap.medianInMs - floor.medianInMs).toFixed(3)} ms) is the client's own work: preparing and guarding the request, decoding, the strict parse, validation, ${results.checks?.phases.find((phase) => phase.key === 'scanInMs').inChecks === false ? 'the digest, caching and registering the service (the poisoning scan runs on export by default, not here)' : 'the poisoning scan, the digest, caching and registering the service'}.${results.checks ? ` The checks among them take ${results.checks.checksInMs.median.toFixed(3)} ms on warm code ("What the checks cost" in bench/RESULTS.md).` : ''}`,
  );
  const [revalidated, floor304, cached] = results.revalidation.rows;
  lines.push(
    `A 304 revalidation takes ${revalidated.medianInMs.toFixed(3)} ms against the floor's ${floor304.medianInMs.toFixed(3)} ms; within max-age a discovery sends no request and takes ${cached.medianInMs.toFixed(3)} ms.`,
  );
  for (const row of results.scale.rows ?? []) {
    lines.push(
      `${row.label}: ${row.tools} tools, ${kib(row.manifestBytes)} compact (${kib(row.wire.gzip.bytes)} gzip, ${kib(row.wire.br.bytes)} br on the wire; MCP's \`tools/list\` answer ${kib(row.wire.mcpToolsList.bytes)}); cold discovery ${row.cold.aicapMedianInMs.toFixed(1)} ms, ${comparedWithMcp(row.cold.versusMcp.median)}.${row.checks ? ` Its checks alone take ${row.checks.checksInMs.median.toFixed(1)} ms${scanShare(row.checks)}; the floor plus the checks is ${comparedWithMcp(row.checks.ceilings.versusMcpAtMost.median)}.` : ''}`,
    );
  }
  return lines;
}

function kib(bytes) {
  return bytes >= 1_048_576 ? `${(bytes / 1_048_576).toFixed(2)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
}

/** Section 9, when the run measured it: removal → first refused call, beside MCP's list_changed. */
function livenessSection(liveness) {
  if (!liveness) return [];
  return [
    '## 9. Liveness: removal → first refused call',
    '',
    `${liveness.rounds} rounds; each removes a tool on the producer and puts it back. The aicap variants hear the same removal at once (they share the machine within a round); the baseline is an MCP SDK server removing a tool from a connected SDK client over the in-memory transport, MCP's fastest mode.${liveness.skipped ? ` Skipped: ${liveness.skipped}.` : ''}`,
    '',
    ...latencyTable(liveness.rows),
    '',
    '| variant | time ÷ MCP baseline |',
    '|---|---:|',
    ...Object.entries(liveness.versusMcp).map(([name, ratio]) => `| ${name} | ${ratio.median.toFixed(1)} (${ratio.p25.toFixed(1)}–${ratio.p75.toFixed(1)}) |`),
    '',
  ];
}

function latencyTable(rows, withRequests = false) {
  return [
    `| variant | median ms | p25 ms | p75 ms | p95 ms | min ms | max ms | iterations${withRequests ? ' | requests per call' : ''} |`,
    `|---|---:|---:|---:|---:|---:|---:|---:${withRequests ? '|---:' : ''}|`,
    ...rows.map(
      (row) =>
        `| ${row.name} | ${row.medianInMs.toFixed(3)} | ${row.p25InMs.toFixed(3)} | ${row.p75InMs.toFixed(3)} | ${row.p95InMs.toFixed(3)} | ${row.minInMs.toFixed(3)} | ${row.maxInMs.toFixed(3)} | ${row.iterations}${withRequests ? ` | ${row.requestsPerCall === undefined ? '' : Math.round(row.requestsPerCall * 100) / 100}` : ''} |`,
    ),
  ];
}

function scaleSection(scale) {
  if (scale.pending) return [`Pending: ${scale.pending}`];
  const lines = [
    '| API | tools (MCP) | generation ms | compact | identity / gzip / br on the wire | MCP `tools/list` | cold aicap ms | cold vs floor | cold vs MCP | 304 vs floor | cache hit ms | first selection ms (next) |',
    '|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of scale.rows) {
    lines.push(
      `| ${row.label} | ${row.tools} (${row.mcpTools}) | ${row.generationInMs} | ${kib(row.manifestBytes)} | ${kib(row.wire.identity.bytes)} / ${kib(row.wire.gzip.bytes)} / ${kib(row.wire.br.bytes)} | ${kib(row.wire.mcpToolsList.bytes)} | ${row.cold.aicapMedianInMs.toFixed(1)} | ${spreadText(row.cold.versusFloor)} | ${spreadText(row.cold.versusMcp)} | ${spreadText(row.revalidation.versusFloor)} | ${row.revalidation.cacheHitInMs.median.toFixed(3)} | ${row.selection.firstInMs.toFixed(1)} (${row.selection.nextInMs.toFixed(2)}) |`,
    );
  }
  for (const row of scale.rows) {
    lines.push(
      '',
      `### ${row.label}`,
      '',
      `First selection for "${row.selection.query}": ${row.selection.top.map((name) => `\`${name}\``).join(', ')}.`,
      '',
      ...latencyTable(row.cold.rows),
      '',
      ...latencyTable(row.revalidation.rows, true),
    );
    if (row.firstTurn) lines.push('', firstTurnTokensLine(row.firstTurn));
    if (row.freshProcess) lines.push('', ...freshProcessTable(row.freshProcess));
    if (row.wholeProcess)
      lines.push(
        '',
        `Whole process (median of ${row.wholeProcess.runs}): one cold discovery ${row.wholeProcess.discoveryInMs} ms, peak RSS ${row.wholeProcess.peakRssInMiB} MiB (Node and the loaded modules alone: ${row.wholeProcess.baselineRssInMiB} MiB).`,
      );
  }
  return lines;
}

/** A first turn's tokens: the section's request, and the spread over a request set when it measured one. */
function firstTurnTokensLine({ query, tokens }) {
  const single = `First turn, o200k_base tokens: MCP's whole tool list ${tokens.mcp}, aicap's 5 for "${query}" ${tokens.aicap} (${tokens.fewer}× fewer: ${tokens.selected.map((name) => `\`${name}\``).join(', ')}).`;
  const set = tokens.overRequests;
  if (!set) return single;
  return `${single} Over the ${set.requests} requests of \`${set.set}\`, MCP's list ÷ each request's 5: median ${set.median}× (p25–p75 ${set.p25}–${set.p75}, least ${set.least}); ${set.belowFifty} below 50×.`;
}

/** A paired ratio as `median (p25–p75)`. */
function spreadText(ratio) {
  return `${ratio.median.toFixed(2)} (${ratio.p25.toFixed(2)}–${ratio.p75.toFixed(2)})`;
}

/** The first discovery of new processes: each target's medians (client CPU with its p25–p75). */
function freshProcessTable(freshProcess) {
  return [
    `First discovery in a new Node process (median of ${freshProcess.rows[0].runs} processes per target, alternating; JIT cold, modules just loaded):`,
    '',
    '| target | client CPU ms, first operation (p25–p75) | wall ms | CPU ms loading the modules |',
    '|---|---:|---:|---:|',
    ...freshProcess.rows.map(
      (row) => `| ${row.name} | ${row.cpuInMs} ${row.cpuP25InMs === undefined ? '' : `(${row.cpuP25InMs}–${row.cpuP75InMs})`} | ${row.discoveryInMs} | ${row.moduleLoadCpuInMs} |`,
    ),
  ];
}

/** The checks of a cold discovery phase by phase (sections/checks.js), Payments and each big API side by side, and what they leave reachable. */
function checksSection(results) {
  const columns = [{ label: 'Payments', cold: results.discovery, checks: results.checks }, ...(results.scale.rows ?? []).map((row) => ({ label: row.label, cold: row.cold, checks: row.checks }))];
  const cell = (spread) => `${spread.median.toFixed(3)} (${spread.p25.toFixed(3)}–${spread.p75.toFixed(3)})`;
  const row = (label, format) => `| ${label} | ${columns.map(format).join(' | ')} |`;
  const [first] = columns;
  return [
    `The client's own functions in the order a cold discovery runs them, in the bench process on warm code, each round on a fresh copy of the served bytes (${first.checks.rounds} rounds for Payments, ${
      columns
        .slice(1)
        .map((column) => column.checks.rounds)
        .join(', ') || 'none'
    } for the big APIs); median (p25–p75) ms. The floor plus the checks is about the fastest a cold discovery can be while it keeps every check; the last two rows divide by it (ratios of medians, the measured ratio in brackets). Warm code makes the checks cheaper here than inside a discovery, which meets them with cold caches after the network wait: by little on a big manifest, by a multiple on a small one.`,
    '',
    `| phase | ${columns.map((column) => column.label).join(' | ')} |`,
    `|---|${columns.map(() => '---:').join('|')}|`,
    ...first.checks.phases.map((phase, index) => row(phase.label, (column) => cell(column.checks.phases[index]))),
    row(
      `**checks, total** (the ${first.checks.phases.filter((phase) => phase.inChecks !== false).length} rows a default discovery adds to the floor)`,
      (column) => `**${cell(column.checks.checksInMs)}**`,
    ),
    row('floor, cold (network, decode, `JSON.parse`)', (column) => column.cold.rows[1].medianInMs.toFixed(3)),
    row('floor + checks', (column) => column.checks.ceilings.leastInMs.toFixed(3)),
    row('aicap cold discovery, measured', (column) => column.cold.aicapMedianInMs.toFixed(3)),
    row('fastest MCP `connect` + `listTools`', (column) => (column.cold.rows.find((entry) => entry.name === column.cold.versusMcp.against)?.medianInMs ?? Number.NaN).toFixed(3)),
    row(
      'fastest MCP ÷ (floor + checks): the most cold vs MCP can reach (measured)',
      (column) => `${column.checks.ceilings.versusMcpAtMost.median.toFixed(2)} (${column.cold.versusMcp.median.toFixed(2)})`,
    ),
    row(
      '(floor + checks) ÷ floor: the least cold vs floor can reach (measured)',
      (column) => `${column.checks.ceilings.versusFloorAtLeast.median.toFixed(2)} (${column.cold.versusFloor.median.toFixed(2)})`,
    ),
  ];
}

function generatorSection(generator) {
  if (generator.pending) return [`Pending: ${generator.pending}`];
  return [
    `One run per description in a fresh process, through the generator's own \`bench/generator-one.js\` (wall and CPU time, peak RSS of that process, Node itself included).${generator.fullResults ? ` Its full benchmark (3 runs each, the whole corpus): [${generator.fullResults.replace('bench/', '')}](${generator.fullResults.replace('bench/', '')}).` : ''} Target: ${generator.target.description}: ${generator.target.met ? '✔ met' : '✘ missed'}.`,
    '',
    '| description | operations | tools | warnings | wall ms | CPU ms | peak RSS MiB | manifest MiB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...generator.rows.map((row) => `| ${row.description} | ${row.operations} | ${row.tools} | ${row.warnings} | ${row.wallInMs} | ${row.cpuInMs} | ${row.peakRssInMiB} | ${row.manifestInMiB} |`),
  ];
}

function tokensSection(tokens) {
  return [
    'Full OpenAI Chat Completions tool export of the catalog vs the export of `selectTools` top 5 for one request.',
    '',
    '| description | tools in catalog | full export, tokens | request | top 5 | top 5, tokens | × fewer |',
    '|---|---:|---:|---|---|---:|---:|',
    ...tokens.rows.flatMap((row) =>
      row.selections.map(
        (selection, index) =>
          `| ${index === 0 ? row.label : ''} | ${index === 0 ? row.catalogTools : ''} | ${index === 0 ? row.fullExportTokens : ''} | ${selection.request} | ${selection.tools.map((name) => `\`${name}\``).join(', ')} | ${selection.tokens} | ${selection.ratio} |`,
      ),
    ),
    '',
    ...tokens.rows
      .filter((row) => row.generationInMs !== undefined)
      .map(
        (row) =>
          `${row.label}: converted by \`aicap/openapi\` in ${row.generationInMs} ms (${row.operations} operations → ${row.manifestTools} tools; ${row.catalogTools} in the catalog after deprecated and quarantined ones are held back).`,
      ),
    ...(tokens.pending ? [`Pending: ${tokens.pending}`] : []),
  ];
}

function selectionSection(selection) {
  if (selection.pending) return [`Selection cost pending: ${selection.pending}`];
  return [
    `Selection on ${selection.tools} tools (GitHub and Stripe in one catalog), ${selection.rounds} rounds: the first query on a new catalog array (index build included) ${selection.firstQueryWithIndexBuildInMs.toFixed(1)} ms; a query after indexing ${selection.queryInMs.median.toFixed(2)} ms (p25–p75 ${selection.queryInMs.p25.toFixed(2)}–${selection.queryInMs.p75.toFixed(2)}). Targets: query ${selection.targets.queryInMs} ms ${selection.met.query ? '✔' : '✘'}, index build ${selection.targets.indexBuildInMs} ms ${selection.met.indexBuild ? '✔' : '✘'}. Recall and MRR: [selection-results.md](selection-results.md) (\`npm run eval:selection\`).`,
  ];
}

/** "2.8× slower than the fastest MCP mode" for a ratio below 1: "0.36× faster" reads as a win when it is a loss. */
function comparedWithMcp(mcpTimeOverAicapTime) {
  return mcpTimeOverAicapTime >= 1 ? `${mcpTimeOverAicapTime.toFixed(2)}× faster than the fastest MCP mode` : `${(1 / mcpTimeOverAicapTime).toFixed(2)}× slower than the fastest MCP mode`;
}
