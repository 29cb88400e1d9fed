// The inspector in a real headless Chromium (Debian's `chromium`, driven by playwright-core with its
// executable path) against the real Payments example: the page loads, its tools appear, a call
// succeeds, the approval dialog gates a consequential tool (declined: nothing sent; approved: sent
// once), the report job runs to its result with its question answered, and a hostile manifest
// renders as text. Screenshots go to $AICAP_SCREENSHOTS_DIR when set (docs/ holds the committed ones).
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startPaymentsServer, type PaymentsServer } from '../../examples/payments/start-payments-server.js';
import { startInspector, type Inspector } from '../../src/inspector/start-inspector.js';
import { findChromium } from '../helpers/find-chromium.js';

const chromiumPath = findChromium();
if (!chromiumPath) console.warn('Skipping the inspector browser tests: no chromium on PATH (install it with `apt-get install -y chromium`).');
const screenshots = process.env['AICAP_SCREENSHOTS_DIR'];

// Every text field of a manifest carries markup that would run if any of it were parsed as HTML.
const PAYLOAD = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script><b onmouseover="window.__pwned=3">x</b>';

function hostileManifest(): object {
  return {
    schema_version: '0.1.0',
    service: { name: `Hostile ${PAYLOAD}`, description: `Description ${PAYLOAD}`, base_url: 'http://127.0.0.1:9/v1' },
    tools: [
      {
        id: 'hostile_tool',
        path: '/things',
        method: 'GET',
        description: `Lists things ${PAYLOAD}`,
        intent: { when: `When ${PAYLOAD}`, prerequisites: `First ${PAYLOAD}`, avoid_when: `Never ${PAYLOAD}` },
        parameters: { q: { type: 'string', required: false, description: `Query ${PAYLOAD}` } },
        returns: { type: 'object', description: `Returns ${PAYLOAD}` },
        errors: { broken: { status: 500, context: `Context ${PAYLOAD}` } },
      },
    ],
  };
}

function manyToolsManifest(count: number): object {
  const tools = Array.from({ length: count }, (_, index) => ({
    id: `tool_${index}`,
    path: `/things/${index}/{thing_id}`,
    method: index % 3 === 0 ? 'POST' : 'GET',
    description: `Does thing number ${index} with a description long enough to look like a real API's.`,
    parameters: { thing_id: { type: 'string', required: true, description: 'The thing.' }, limit: { type: 'integer', required: false, description: 'Page size.' } },
  }));
  return { schema_version: '0.1.0', service: { name: 'Six hundred tools', description: 'A large catalog.', base_url: 'http://127.0.0.1:9/v1' }, tools };
}

describe.skipIf(!chromiumPath)('aicap inspect in headless Chromium', { timeout: 60_000 }, () => {
  let browser: Browser;
  let payments: PaymentsServer;
  let inspector: Inspector;
  const requests: string[] = [];
  const directory = mkdtempSync(join(tmpdir(), 'aicap-inspector-'));

  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: chromiumPath!,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    payments = await startPaymentsServer({ jobs: { eventIntervalInMs: 20 } });
    payments.server.on('request', (request) => void requests.push(`${request.method} ${request.url}`));
    inspector = await startInspector({ source: payments.origin, token: 'demo-admin' });
  }, 60_000);

  afterAll(async () => {
    await inspector?.close();
    await payments?.close();
    await browser?.close();
  });

  async function openPage(url: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('dialog', (dialog) => void dialog.dismiss());
    await page.goto(url);
    return page;
  }

  async function snap(page: Page, name: string): Promise<void> {
    if (screenshots) await page.screenshot({ path: join(screenshots, `inspector-${name}.png`), fullPage: true });
  }

  it('shows the Payments service and its 5 tools', async () => {
    const page = await openPage(inspector.url);
    await page.locator('.tool-row').first().waitFor({ state: 'attached' });
    expect(await page.locator('.tool-row').count()).toBe(5);
    expect(await page.locator('h2').first().textContent()).toContain('Payments');
    // What a view leaves out (no refusal here) is not rendered as the text "null".
    expect(await page.locator('#view-0').textContent()).not.toContain('null');
    // Nor anywhere else: no text node of any tab (views are all built up front) is a bare "null" or "undefined".
    const stray = await page.evaluate(() => {
      const walker = document.createTreeWalker(document.getElementById('views') ?? document.body, NodeFilter.SHOW_TEXT);
      const found: string[] = [];
      for (let node = walker.nextNode(); node !== null && found.length < 10; node = walker.nextNode())
        if (/^\s*(?:null|undefined)\s*$/.test(node.nodeValue ?? '')) found.push(node.parentElement?.outerHTML.slice(0, 120) ?? '');
      return found;
    });
    expect(stray).toEqual([]);
    // The token moved from the address bar into a cookie.
    expect(new URL(page.url()).searchParams.has('token')).toBe(false);
    await snap(page, 'overview');
    await page.close();
  });

  it('calls list_transactions through the client and shows the redacted envelope', async () => {
    const page = await openPage(inspector.url);
    await page.locator('[role=tab][data-tab=Tools]').click();
    await page.locator('.tool-row[data-tool=list_transactions]').click();
    await page.locator('#try-it input[name=account_id]').fill('12345');
    await page.locator('#try-it input[name=limit]').fill('3');
    await page.locator('#call-button').click();
    await expect.poll(() => page.locator('#call-result').textContent(), { timeout: 15_000 }).toContain('OK 200');
    // account_id is in the manifest's redact_from_logs: the page shows it redacted.
    expect(await page.locator('#call-output').textContent()).toContain('[REDACTED]');
    await snap(page, 'call');
    await page.close();
  });

  it('asks before a consequential call: declined sends nothing, approved sends once', async () => {
    const page = await openPage(inspector.url);
    await page.locator('[role=tab][data-tab=Tools]').click();
    await page.locator('.tool-row[data-tool=close_account]').click();
    await page.locator('#try-it input[name=account_id]').fill('12345');
    await page.locator('#try-it select[name=reason]').selectOption({ label: 'duplicate' });
    const closes = () => requests.filter((line) => line.startsWith('POST') && line.includes('/accounts/12345/close')).length;
    await page.locator('#call-button').click();
    await page.locator('dialog#approval[open]').waitFor();
    await snap(page, 'approval');
    await page.locator('#approval-cancel').click();
    await page.locator('#declined').waitFor();
    expect(closes()).toBe(0);
    await page.locator('#call-button').click();
    await page.locator('dialog#approval[open]').waitFor();
    await page.locator('#approval-approve').click();
    await expect.poll(() => page.locator('#call-result').textContent(), { timeout: 15_000 }).toMatch(/OK 20\d/);
    expect(closes()).toBe(1);
    await page.close();
  });

  it('runs the report job with live progress and answers its question', async () => {
    const page = await openPage(inspector.url);
    await page.locator('[role=tab][data-tab=Tools]').click();
    await page.locator('.tool-row[data-tool=generate_report]').click();
    await page.locator('#try-it input[name=account_id]').fill('12345');
    await page.locator('#try-it input[name=period]').fill('2026-03');
    await page.locator('#try-it select[name=format]').selectOption({ label: 'pdf' });
    await page.locator('#call-button').click();
    await page.locator('#job-question button.answer').first().waitFor({ timeout: 20_000 });
    await snap(page, 'job');
    await page.locator('#job-question button.answer').first().click();
    await page.locator('#job-done').waitFor({ timeout: 20_000 });
    expect(await page.locator('#job-done').textContent()).toBe('Job result');
    expect(await page.locator('#job-events').textContent()).toContain('progress');
    await page.close();
  });

  it('ranks tools for a typed request with their token cost', async () => {
    const page = await openPage(inspector.url);
    await page.locator('[role=tab][data-tab=Selection]').click();
    await page.locator('#view-7 input[type=search]').fill('show unusual transactions on account 12345');
    await page.locator('#view-7 button[type=submit]').click();
    await expect.poll(() => page.locator('#selection-output').textContent(), { timeout: 10_000 }).toContain('tokens instead of');
    await page.close();
  });

  it('diffs against the pinned manifest and against a pasted one', async () => {
    const page = await openPage(inspector.url);
    await page.locator('[role=tab][data-tab=Diff]').click();
    await page.locator('#view-6 button').first().click();
    await expect.poll(() => page.locator('#diff-summary').textContent(), { timeout: 10_000 }).toContain('0 changes');
    const changed = structuredClone(payments.manifest) as { policy: { human_approval_required: string[] } };
    changed.policy.human_approval_required = [];
    await page.locator('#view-6 textarea').fill(JSON.stringify(changed));
    await page.locator('#view-6 button').nth(1).click();
    // The pasted manifest is the old side: the loaded one adds approval to both admin tools.
    await expect.poll(() => page.locator('#diff-summary').textContent(), { timeout: 10_000 }).toContain('2 changes');
    expect(await page.locator('#diff-output').textContent()).toContain('close_account');
    await snap(page, 'diff');
    await page.close();
  });

  it('renders every field of a hostile manifest as text and runs none of it', async () => {
    const file = join(directory, 'hostile.json');
    writeFileSync(file, JSON.stringify(hostileManifest()));
    const hostile = await startInspector({ source: file });
    try {
      const page = await openPage(hostile.url);
      await page.locator('.tool-row').first().waitFor({ state: 'attached' });
      await page.locator('[role=tab][data-tab=Tools]').click();
      await page.locator('.tool-row').first().click();
      await page.locator('#try-it').waitFor();
      await page.locator('.tool-row').first().hover();
      await page.locator('[role=tab][data-tab="Raw JSON"]').click();
      await page.locator('#raw-json details').first().waitFor();
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await page.locator('img').count()).toBe(0);
      expect(await page.locator('script').count()).toBe(1);
      expect(await page.locator('body').textContent()).toContain('<img src=x onerror=');
      await page.close();
    } finally {
      await hostile.close();
    }
  });

  it('refuses requests without the token, from another Host, and state changes by GET or form post', async () => {
    const origin = inspector.origin;
    expect((await fetch(`${origin}/`)).status).toBe(403);
    expect((await fetch(`${origin}/api/view`)).status).toBe(403);
    const cookie = `aicap_inspector=${new URL(inspector.url).searchParams.get('token')}`;
    expect((await fetch(`${origin}/api/view`, { headers: { cookie } })).status).toBe(200);
    expect((await fetch(`${origin}/api/call`, { headers: { cookie } })).status).toBe(404);
    expect((await fetch(`${origin}/api/call`, { method: 'POST', headers: { cookie, 'content-type': 'text/plain' }, body: '{"toolId":"close_account"}' })).status).toBe(415);
    const { request } = await import('undici');
    const rebound = await request(`${origin}/api/view`, { headers: { cookie, host: 'evil.example:80' } });
    await rebound.body.dump();
    expect(rebound.statusCode).toBe(403);
    const page = await (await fetch(inspector.url, { redirect: 'manual' })).headers;
    expect(page.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('reports the first render of a 600-tool manifest', async () => {
    const file = join(directory, 'six-hundred.json');
    writeFileSync(file, JSON.stringify(manyToolsManifest(600)));
    const big = await startInspector({ source: file });
    try {
      const page = await openPage(big.url);
      await page.locator('.tool-row').nth(599).waitFor({ state: 'attached', timeout: 20_000 });
      const firstRenderInMs = Number(await page.locator('body').getAttribute('data-first-render-in-ms'));
      // Reported, not asserted: timing belongs to measurement, not to pass/fail.
      console.info(`inspector: first render of a 600-tool manifest took ${firstRenderInMs} ms in headless Chromium`);
      expect(await page.locator('.tool-row').count()).toBe(600);
      await page.close();
    } finally {
      await big.close();
    }
  });

  it('ships its page assets in the package (no CDN)', () => {
    for (const file of ['index.html', 'app.js', 'app.css']) expect(existsSync(new URL(`../../assets/inspector/${file}`, import.meta.url))).toBe(true);
  });
});

describe('aicap inspect (built CLI)', () => {
  it('prints its URL with the token on stdout first and serves the page only with it', async () => {
    const { spawn } = await import('node:child_process');
    const { BUILT_CLI } = await import('../helpers/run-built-cli.js');
    const payments = await startPaymentsServer();
    const child = spawn(process.execPath, [BUILT_CLI, 'inspect', payments.origin, '--no-open'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const firstLine = await new Promise<string>((resolve, reject) => {
        let buffered = '';
        child.stdout.on('data', (chunk: Buffer) => {
          buffered += chunk.toString();
          if (buffered.includes('\n')) resolve(buffered.split('\n')[0]!);
        });
        child.once('exit', (code) => reject(new Error(`aicap inspect exited with ${code} before printing its URL`)));
      });
      const url = new URL(firstLine);
      expect(url.hostname).toBe('127.0.0.1');
      expect(url.searchParams.get('token')).toMatch(/^[\w-]{32}$/);
      expect((await fetch(url.origin)).status).toBe(403);
      const opened = await fetch(url, { redirect: 'manual' });
      expect(opened.status).toBe(303);
      const cookie = opened.headers.get('set-cookie')!.split(';')[0]!;
      const view = (await (await fetch(`${url.origin}/api/view`, { headers: { cookie } })).json()) as { view: { catalog: { tools: unknown[] } } };
      expect(view.view.catalog.tools).toHaveLength(5);
    } finally {
      child.kill('SIGTERM');
      await payments.close();
    }
  });
});
