// The approvals console end to end (docs/console.md): `codemode workflow console` serving the
// example quote workflow, driven in Debian's headless Chromium by playwright-core (pinned in
// package-lock.json; no browser is downloaded). A person opens the login link, sees the run
// waiting, reads its source and digest, approves both phases and sees the result and the audit;
// rejects another run; meets a digest that went stale while the page was open; requests
// without the token or a session, from another origin or for another Host are refused; a
// decision that fails leaves the page usable; a keyboard user sees where the focus is and a
// screen reader hears what changed; a phase crafted to hide code from its reviewer is shown as
// the engine reads it; and a narrow window stacks the page without scrolling sideways.
//
// CODEMODE_CONSOLE_SCREENSHOTS=DIR also saves the main views there (docs/console/ holds them).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import readline from 'node:readline';
import vm from 'node:vm';
import { chromium } from 'playwright-core';

const cli = process.env.CODEMODE_CLI;
assert.ok(cli, 'CODEMODE_CLI is not set: run this through ctest');
const sourceDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const exampleDir = path.join(sourceDir, 'examples/quote');
const screenshots = process.env.CODEMODE_CONSOLE_SCREENSHOTS;
const me = os.userInfo().username;
const input = JSON.stringify({ skus: ['ab', 'cde'], percent: 10 });

// A copy of the example workflow in a scratch directory of its own, approvable by this account;
// `programs` replaces phase programs' files ({'price.js': source}).
function workflowCopy(extra = {}, programs = {}) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'codemode-console-test-'));
  for (const name of fs.readdirSync(exampleDir)) {
    fs.copyFileSync(path.join(exampleDir, name), path.join(scratch, name));
  }
  fs.chmodSync(path.join(scratch, 'discount.sh'), 0o755);
  for (const [name, source] of Object.entries(programs)) fs.writeFileSync(path.join(scratch, name), source);
  const priceTools = path.join(scratch, 'price-tools.json');
  const tools = JSON.parse(fs.readFileSync(priceTools, 'utf8'));
  tools.tools[0].command = [path.join(sourceDir, 'examples/catalog/price.sh')];
  fs.writeFileSync(priceTools, JSON.stringify(tools));
  const file = path.join(scratch, 'workflow.json');
  const workflow = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.writeFileSync(file, JSON.stringify({ ...workflow, approvers: [me], ...extra }));
  return { scratch, file, store: `sqlite:${path.join(scratch, 'runs.db')}` };
}

function workflowCommand(copy, args) {
  const [command, ...rest] = args;
  const run = spawnSync(cli, ['workflow', command, copy.file, ...rest, '--store', copy.store],
                        { cwd: copy.scratch, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

function startRun(copy, runInput = input) {
  const run = spawnSync(cli, ['workflow', 'start', copy.file, '--store', copy.store,
                              '--input', runInput], { cwd: copy.scratch, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

// Starts the console on a free loopback port; resolves with {process, console, login}.
async function startConsole(copy, extraArgs = []) {
  const child = spawn(cli, ['workflow', 'console', copy.file, '--store', copy.store,
                            '--listen', '127.0.0.1:0', '--work', '--poll-ms', '100', ...extraArgs],
                      { cwd: copy.scratch, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const lines = readline.createInterface({ input: child.stdout });
  const first = await new Promise((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`console exited ${code}: ${stderr}`)));
  });
  return { process: child, ...JSON.parse(first) };
}

async function stopConsole(server) {
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.process.kill('SIGTERM');
  assert.equal(await exited, 0, 'the console exits 0 on SIGTERM');
}

// GET with a Host header of our choosing (fetch does not let a caller set Host).
function statusWithHost(url, session, host) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { 'x-codemode-session': session, host } }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    request.on('error', reject);
  });
}

let browser;
const cleanups = [];

before(async () => {
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await browser?.close();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function setUp(extra, programs) {
  const copy = workflowCopy(extra, programs);
  const server = await startConsole(copy);
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  const blocked = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(server.console)) blocked.push(request.url());
  });
  cleanups.push(async () => {
    await context.close();
    await stopConsole(server);
    fs.rmSync(copy.scratch, { recursive: true, force: true });
  });
  return { copy, server, page, blocked };
}

async function shoot(page, name) {
  if (!screenshots) return;
  fs.mkdirSync(screenshots, { recursive: true });
  await page.screenshot({ path: path.join(screenshots, `${name}.png`), fullPage: true });
}

test('a person reviews a pending phase, approves its digest, and sees the result and the audit',
  async () => {
    const { copy, server, page, blocked } = await setUp();
    const started = startRun(copy);
    const runId = started.runId;
    const expected = started.pending[0];

    await page.goto(server.login);
    assert.equal(new URL(page.url()).pathname, '/', 'the login link redirects to the page');
    const runButton = page.locator(`button[data-run="${runId}"]`);
    await runButton.waitFor();
    assert.ok(!page.url().includes('token') && !page.url().includes('session'),
              'neither the token nor the session stays in the address bar');
    assert.deepEqual(await page.context().cookies(), [], 'no cookie: every port of a host would get it');
    assert.match(await runButton.innerText(), /waiting/);
    await runButton.click();

    const price = page.locator('section[data-phase="price"]');
    await price.locator('[data-testid="digest"]').waitFor();
    assert.equal(await price.locator('[data-testid="digest"]').innerText(), expected.digest);
    assert.equal(await price.locator('[data-testid="intent"]').innerText(), expected.intent);
    const source = await price.locator('[data-testid="source"]').innerText();
    assert.match(source, /tools\.call\('catalog\.price'/);
    assert.match(source, /^1\s/m, 'the source has line numbers');
    assert.ok(await price.locator('.tok-kw').count() > 0, 'the source is highlighted');
    assert.deepEqual(JSON.parse(await price.locator('[data-testid="input"]').innerText()),
                     JSON.parse(input));
    assert.match(await price.innerText(), /catalog\.price/);
    assert.match(await price.innerText(), /maxToolCalls/);
    // What the tools run: the command the digest binds, argument by argument, and its file's
    // content digest.
    const priceScript = path.join(sourceDir, 'examples/catalog/price.sh');
    assert.deepEqual(await price.locator('[data-testid="command"] li').allInnerTexts(), [priceScript]);
    assert.equal(expected.binding.tools[0].files[0].path, priceScript);
    assert.match(await price.locator('[data-testid="binding"]').innerText(),
                 new RegExp(expected.binding.tools[0].files[0].content.slice(0, 23)));
    await shoot(page, 'pending');

    await price.locator('[data-testid="approve"]').click();
    // The console's worker runs the phase; live updates bring the next request without a reload.
    const discount = page.locator('section[data-phase="discount"]');
    await discount.locator('[data-testid="approve"]').waitFor({ timeout: 20000 });
    assert.match(await price.innerText(), /decided by/);
    await price.locator('[data-testid="audit-outcome"]').waitFor();
    assert.match(await price.locator('[data-testid="audit-outcome"]').innerText(), /succeeded/);
    await discount.locator('[data-testid="approve"]').click();

    const result = page.locator('[data-testid="result"]');
    await result.waitFor({ timeout: 20000 });
    assert.deepEqual(JSON.parse(await result.innerText()), { quoteCents: 450, quoteId: 'q-1' });
    await discount.locator('[data-testid="audit-outcome"]').waitFor();
    const audit = await discount.innerText();
    assert.match(audit, /quote\.discount/, 'the receipts table names the write');
    assert.match(audit, /usage/i);
    assert.ok(!audit.includes('programError'), 'the audit holds no program error');
    await shoot(page, 'finished');

    // What the page shows is what the store holds, decided by this account.
    const status = workflowCommand(copy, ['status', runId]);
    assert.equal(status.status, 'succeeded');
    assert.deepEqual(status.phases.map((p) => p.decidedBy), [me, me]);
    assert.deepEqual(blocked, [], 'the page loads nothing from anywhere else');
  });

test('with approver keys, the console signs each decision with the key it was given',
  async () => {
    const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'codemode-console-key-'));
    cleanups.push(() => fs.rmSync(keyDir, { recursive: true, force: true }));
    const key = path.join(keyDir, 'me.key');
    const generated = spawnSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', key]);
    assert.equal(generated.status, 0, String(generated.stderr));
    fs.chmodSync(key, 0o600);
    const pub = path.join(keyDir, 'me.pub');
    assert.equal(spawnSync('openssl', ['pkey', '-in', key, '-pubout', '-out', pub]).status, 0);
    const copy = workflowCopy({ approverKeys: { [me]: pub } });
    const server = await startConsole(copy, ['--key', key]);
    const context = await browser.newContext();
    const page = await context.newPage();
    cleanups.push(async () => {
      await context.close();
      await stopConsole(server);
      fs.rmSync(copy.scratch, { recursive: true, force: true });
    });
    const { runId } = startRun(copy);
    await page.goto(server.login);
    await page.locator(`button[data-run="${runId}"]`).click();
    await page.locator('section[data-phase="price"] [data-testid="approve"]').click();
    await page.locator('section[data-phase="discount"] [data-testid="approve"]')
      .waitFor({ timeout: 20000 });
    const status = workflowCommand(copy, ['status', runId]);
    assert.equal(status.phases[0].state, 'succeeded');
    assert.equal(status.phases[0].decidedBy, me);
  });

test('a person rejects a phase: the run ends blocked', async () => {
  const { copy, server, page } = await setUp();
  const { runId } = startRun(copy);
  await page.goto(server.login);
  await page.locator(`button[data-run="${runId}"]`).click();
  await page.locator('section[data-phase="price"] [data-testid="reject"]').click();
  await page.locator('h2 .status.blocked').waitFor({ timeout: 10000 });
  const status = workflowCommand(copy, ['status', runId]);
  assert.equal(status.status, 'blocked');
  assert.equal(status.error.rule, 'approval_rejected');
  assert.equal(status.phases[0].decidedBy, me);
});

// The focus ring a keyboard user sees on the focused element: the page's own (a 3 px solid
// outline), not the browser's default or none.
async function focusRing(page) {
  return page.evaluate(() => {
    const focused = document.activeElement;
    const style = getComputedStyle(focused);
    return { run: focused.dataset.run || null, testid: focused.dataset.testid || null,
             style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
  });
}

test('by keyboard: a decision that fails leaves its buttons usable and says why, and a retry decides',
  async () => {
    const { copy, server, page } = await setUp();
    const { runId } = startRun(copy);
    await page.goto(server.login);
    const runButton = page.locator(`button[data-run="${runId}"]`);
    await runButton.waitFor();

    // Only the status line is live; the detail, redrawn on every update, is not.
    assert.equal(await page.locator('#detail').getAttribute('aria-live'), null);
    const statusLine = page.locator('[data-testid="status-line"]');
    assert.equal(await statusLine.getAttribute('aria-live'), 'polite');
    assert.equal(await statusLine.getAttribute('role'), 'status');
    assert.equal(await page.locator('[aria-live]').count(), 1, 'one live region');
    // Every message it gets, in order (a live update may follow a message at once).
    await page.evaluate(() => {
      const line = document.querySelector('[data-testid="status-line"]');
      window.announced = [];
      new MutationObserver(() => { if (line.textContent) window.announced.push(line.textContent); })
        .observe(line, { childList: true, characterData: true, subtree: true });
    });
    const announced = (pattern) => page.waitForFunction(
      (source) => window.announced.some((text) => new RegExp(source).test(text)), pattern.source,
      { timeout: 20000 });

    // Tab reaches the run, which shows its focus; Enter opens it, and the focus stays on it
    // although the list is drawn again.
    await page.keyboard.press('Tab');
    assert.deepEqual(await focusRing(page), { run: runId, testid: null, style: 'solid', width: 3 });
    await page.keyboard.press('Enter');
    const price = page.locator('section[data-phase="price"]');
    const approve = price.locator('[data-testid="approve"]');
    await approve.waitFor();
    await announced(new RegExp(`^Run ${runId.slice(0, 12)}…: waiting; price awaiting approval\\.$`));
    assert.equal((await focusRing(page)).run, runId);
    for (let i = 0; i < 40 && (await focusRing(page)).testid !== 'approve'; i += 1) {
      await page.keyboard.press('Tab');
    }
    assert.deepEqual(await focusRing(page), { run: null, testid: 'approve', style: 'solid', width: 3 });

    const notice = page.locator('[data-testid="notice"]');
    const settled = () => page.waitForFunction(() => {
      const buttons = [...document.querySelectorAll('section[data-phase="price"] .actions button')];
      return buttons.length === 2 && buttons.every((b) => !b.disabled) &&
        document.querySelector('[data-testid="notice"]');
    });
    const enabled = async () => [await approve.isEnabled(), await price.locator('[data-testid="reject"]').isEnabled()];

    // The console refuses it (an answer that is not 2xx): the buttons come back, the notice and
    // the status line say why, and the focus is still on the button.
    await page.route('**/phases/price/approve', (route) => route.fulfill({
      status: 503, contentType: 'application/json',
      body: JSON.stringify({ error: { message: 'the store is busy' } }) }));
    await page.keyboard.press('Enter');
    await settled();
    assert.deepEqual(await enabled(), [true, true]);
    assert.match(await notice.innerText(), /The console answered 503: the store is busy\. Nothing was approved/);
    await announced(/price was not approved: the console answered 503/);
    assert.equal(await statusLine.getAttribute('class'), 'status-line error');
    assert.equal((await focusRing(page)).testid, 'approve');
    await page.unrouteAll();

    // The console cannot be reached at all (the request fails, and so does loading the run
    // again): the buttons still come back, with the failure in the notice.
    await page.route('**/api/**', (route) => route.abort('connectionrefused'));
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /could not be sent/.test(
      document.querySelector('[data-testid="notice"]')?.textContent));
    await settled();
    assert.deepEqual(await enabled(), [true, true]);
    await announced(/the decision on price failed/);
    assert.equal(await statusLine.getAttribute('class'), 'status-line error');
    assert.equal((await focusRing(page)).testid, 'approve');
    assert.equal(workflowCommand(copy, ['status', runId]).phases[0].state, 'awaiting_approval',
                 'nothing was decided');
    await page.unrouteAll();

    // Trying again decides, and the status line says so; then it says what changed by itself.
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /Approved price/.test(
      document.querySelector('[data-testid="notice"]')?.textContent));
    await announced(new RegExp(`^Run ${runId.slice(0, 12)}…: price approved\\.$`));
    await page.locator('section[data-phase="discount"] [data-testid="approve"]').waitFor({ timeout: 20000 });
    await announced(/discount awaiting approval/);
    assert.equal(await statusLine.getAttribute('class'), 'status-line info');
    assert.equal(workflowCommand(copy, ['status', runId]).phases[0].decidedBy, me);
  });

test('a digest that went stale while the page was open is refused with the fresh request',
  async () => {
    const { copy, server, page } = await setUp({ approvalTtlMs: 1500 });
    const { runId } = startRun(copy);
    // A page whose live updates stopped (a dropped connection, a laptop lid): it keeps showing the
    // request it loaded. A live page would have shown the reissued request by itself.
    await page.route('**/api/events', (route) => route.abort());
    await page.goto(server.login);
    await page.locator(`button[data-run="${runId}"]`).click();
    const digest = page.locator('section[data-phase="price"] [data-testid="digest"]');
    await digest.waitFor();
    const shown = await digest.innerText();
    await new Promise((resolve) => setTimeout(resolve, 2500));  // the request expires
    await page.locator('section[data-phase="price"] [data-testid="approve"]').click();
    const notice = page.locator('[data-testid="notice"]');
    await notice.waitFor();
    assert.match(await notice.innerText(), /Nothing was approved/);
    assert.match(await notice.innerText(), /expired/i);
    await page.waitForFunction((old) => {
      const now = document.querySelector('section[data-phase="price"] [data-testid="digest"]');
      return now && now.textContent !== old;
    }, shown);
    await shoot(page, 'stale');
    const status = workflowCommand(copy, ['status', runId]);
    assert.equal(status.phases[0].state, 'awaiting_approval', 'nothing was approved');
    assert.equal(status.phases[0].decidedBy, undefined);
  });

test('requests without the token or a session, from another origin or for another host are refused',
  async () => {
    const { copy, server } = await setUp();
    const { runId, pending } = startRun(copy);
    const base = server.console.replace(/\/$/, '');
    const host = new URL(base).host;

    assert.equal((await fetch(`${base}/api/runs`)).status, 401);
    assert.equal((await fetch(`${base}/login?token=wrong`, { redirect: 'manual' })).status, 401);
    const login = await fetch(server.login, { redirect: 'manual' });
    assert.equal(login.status, 303);
    assert.equal(login.headers.get('set-cookie'), null, 'the session is never a cookie');
    const session = login.headers.get('location').match(/^\/#session=([0-9a-f]{64})$/)[1];
    const page = await fetch(`${base}/`);
    assert.equal(page.status, 200, 'the page holds no data and needs no session');
    assert.match(page.headers.get('content-security-policy'), /default-src 'none'/);
    assert.match(page.headers.get('content-security-policy'), /frame-ancestors 'none'/);
    assert.equal((await fetch(`${base}/api/runs`, {
      headers: { 'x-codemode-session': '0'.repeat(64) } })).status, 401);
    assert.equal((await fetch(`${base}/api/runs`, {
      headers: { 'x-codemode-session': session } })).status, 200);

    const decide = (headers) => fetch(`${base}/api/runs/${runId}/phases/price/approve`, {
      method: 'POST', body: JSON.stringify({ digest: pending[0].digest }),
      headers: { 'content-type': 'application/json', ...headers },
    });
    assert.equal((await decide({ origin: `http://${host}` })).status, 401, 'no session');
    assert.equal((await decide({ origin: 'http://evil.example', 'x-codemode-session': session })).status, 403);
    assert.equal(await statusWithHost(`${base}/api/runs`, session, 'attacker.example'), 403,
                 'a Host the console does not serve (DNS rebinding) is refused');
    assert.equal(workflowCommand(copy, ['status', runId]).phases[0].state, 'awaiting_approval');

    // The same request from the page's own origin with its session is a decision, and so is one
    // with the bearer token.
    assert.equal((await decide({ origin: `http://${host}`, 'x-codemode-session': session })).status, 200);
    assert.equal(workflowCommand(copy, ['status', runId]).phases[0].decidedBy, me);
    const token = new URL(server.login).searchParams.get('token');
    assert.equal((await fetch(`${base}/api/runs`, {
      headers: { authorization: `Bearer ${token}` } })).status, 200);
  });

// ---- a phase crafted to hide code from its reviewer ----

// Runs `source` as a plain program (`codemode run`: nobody reviews it, so any character is
// allowed) and returns its output.
function runProgram(scratch, source, programInput) {
  const file = path.join(scratch, 'probe.js');
  fs.writeFileSync(file, source);
  const run = spawnSync(cli, ['run', file, '--input', JSON.stringify(programInput)], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  return JSON.parse(run.stdout).output;
}

// Per engine line shown: its number and, per UTF-16 unit of its text, whether it is drawn as a
// comment. Finds `needle`'s line and whether any of its characters is drawn as a comment.
function locateInSource(section, needle) {
  return section.locator('[data-testid="source"]').evaluate((source, wanted) => {
    for (const row of source.querySelectorAll('tr')) {
      const walker = document.createTreeWalker(row.querySelector('td.code'), NodeFilter.SHOW_TEXT);
      let text = '';
      const commented = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        text += node.data;
        const inComment = Boolean(node.parentElement.closest('.tok-com'));
        for (let i = 0; i < node.data.length; i += 1) commented.push(inComment);
      }
      const at = text.indexOf(wanted);
      if (at >= 0) {
        return { line: Number(row.querySelector('td.ln').textContent),
                 commented: commented.slice(at, at + wanted.length).some(Boolean),
                 allCommented: commented.slice(at, at + wanted.length).every(Boolean) };
      }
    }
    return null;
  }, needle);
}

// The example's first phase, with what once hid code from the page: a regular expression that
// contains '//', code 400 spaces to the right, a no-break space and a Cyrillic 'а' in strings.
// Lines end in CRLF, as a Windows editor writes them. With no items it returns its line marker,
// so the engine's line numbers can be read with `codemode run`.
const craftedPrice = [
  '// Prices every item (a phase crafted to hide code from its reviewer).',
  'async (input, tools) => {',
  '  const slash = /\\//; input.percent = 50; // a real comment',
  `  const padded = 1;${' '.repeat(400)}input.percent = 49;`,
  "  const words = ['a\u00a0b', 'p\u0430ss'];",
  '  const lines = [new Error().lineNumber];',
  '  if (input.skus.length === 0) return { totalCents: 0, percent: input.percent, lines };',
  '  let totalCents = 0;',
  '  for (const sku of input.skus) {',
  "    const price = await tools.call('catalog.price', { sku });",
  "    if (price.status !== 'succeeded') throw new Error('price lookup failed');",
  '    totalCents += price.output.cents;',
  '  }',
  '  return { totalCents, percent: input.percent };',
  '}',
].join('\r\n');

test('a phase crafted to hide code is shown as the engine reads it, its input marked', async () => {
  const { copy, server, page } = await setUp({}, { 'price.js': craftedPrice });
  // What the engine does with it: both assignments run, and the marker is on line 6.
  const engine = runProgram(copy.scratch, craftedPrice, { skus: [], percent: 10 });
  assert.deepEqual(engine, { totalCents: 0, percent: 49, lines: [6] });

  const unusualInput = JSON.stringify({
    skus: ['ab\u202ecd', 'x\u200by', 'l\u2028s', 'a\u00a0b', 'p\u0430ss'], percent: 10 });
  const { runId } = startRun(copy, unusualInput);
  await page.goto(server.login);
  await page.locator(`button[data-run="${runId}"]`).click();
  const price = page.locator('section[data-phase="price"]');
  await price.locator('[data-testid="digest"]').waitFor();

  // Lines as the engine numbers them, and the code after the regular expression and after the
  // padding drawn as code, not as a comment; the real comment still is one.
  assert.equal(await price.locator('[data-testid="source"] tr').count(), 15);
  assert.deepEqual(await locateInSource(price, 'lines = [new Error().lineNumber]'),
                   { line: engine.lines[0], commented: false, allCommented: false });
  assert.deepEqual(await locateInSource(price, 'input.percent = 50;'),
                   { line: 3, commented: false, allCommented: false });
  assert.deepEqual(await locateInSource(price, '// a real comment'),
                   { line: 3, commented: true, allCommented: true });
  assert.equal(await price.locator('.tok-re').first().innerText(), '/\\//');
  assert.deepEqual(await locateInSource(price, 'input.percent = 49;'),
                   { line: 4, commented: false, allCommented: false });

  // The long line wraps inside the view: neither the view nor the page scrolls sideways, every
  // line ends inside the window, and the long one is flagged.
  const source = price.locator('[data-testid="source"]');
  const fits = await source.evaluate((view) => {
    const box = view.getBoundingClientRect();
    const page = document.documentElement;
    const cells = [...view.querySelectorAll('td.code')];
    return { viewScrolls: view.scrollWidth > view.clientWidth,
             pageScrolls: page.scrollWidth > page.clientWidth,
             viewInWindow: box.right <= page.clientWidth,
             cellsInside: cells.every((cell) => cell.scrollWidth <= cell.clientWidth &&
                                                cell.getBoundingClientRect().right <= box.right + 0.5) };
  });
  assert.deepEqual(fits, { viewScrolls: false, pageScrolls: false, viewInWindow: true, cellsInside: true });
  assert.equal(await source.locator('tr.long td.ln').innerText(), '4');

  // Unusual characters are shown, not drawn blank: a badge for each invisible one, a mark on
  // each other non-ASCII one, in the source and in the input, with a sentence above each.
  const sourceText = await source.innerText();
  assert.match(sourceText, /⟨U\+00A0⟩/);
  assert.equal(await source.locator('.non-ascii').innerText(), '\u0430');
  assert.match(await price.locator('[data-testid="source-marks"]').innerText(), /invisible.*non-ASCII.*longer than/s);
  const shownInput = price.locator('[data-testid="input"]');
  const inputText = await shownInput.innerText();
  for (const badge of ['⟨U+202E⟩', '⟨U+200B⟩', '⟨U+2028⟩', '⟨U+00A0⟩']) {
    assert.ok(inputText.includes(badge), `${badge} in ${inputText}`);
  }
  assert.ok(!/[\u202e\u200b\u2028\u00a0]/.test(inputText), 'no invisible character is drawn as itself');
  assert.equal(await shownInput.locator('.non-ascii').innerText(), '\u0430');
  assert.match(await price.locator('[data-testid="input-marks"]').innerText(), /4 invisible/);

  const screenshot = path.join(copy.scratch, 'crafted.png');
  await page.screenshot({ path: screenshot, fullPage: true });
  assert.ok(fs.statSync(screenshot).size > 0);
  await shoot(page, 'marked');
});

test('in a narrow window the list and the run stack, and nothing scrolls sideways', async () => {
  const { copy, server, page } = await setUp({}, { 'price.js': craftedPrice });
  const { runId } = startRun(copy, JSON.stringify({ skus: ['ab\u202ecd', 'p\u0430ss'], percent: 10 }));
  await page.goto(server.login);
  await page.locator(`button[data-run="${runId}"]`).click();
  await page.locator('section[data-phase="price"] [data-testid="digest"]').waitFor();

  for (const width of [800, 480]) {
    await page.setViewportSize({ width, height: 900 });
    const layout = await page.evaluate(() => {
      const list = document.querySelector('nav.runs').getBoundingClientRect();
      const detail = document.getElementById('detail').getBoundingClientRect();
      // Whatever is wider than the window must be inside a box that scrolls on its own.
      const outside = [...document.body.querySelectorAll('*')].filter((node) => {
        const box = node.getBoundingClientRect();
        return box.width > 0 && box.right > window.innerWidth + 0.5 && !node.closest('.table-box');
      }).map((node) => node.tagName + (node.className ? `.${node.className}` : ''));
      const source = document.querySelector('[data-testid="source"]');
      return { pageScrolls: document.scrollingElement.scrollWidth > window.innerWidth,
               stacked: detail.top >= list.bottom,
               listShown: list.width > 0 && list.height > 0,
               detailShown: detail.width > 0 && detail.height > 0,
               sourceScrolls: source.scrollWidth > source.clientWidth,
               outside };
    });
    assert.deepEqual(layout, { pageScrolls: false, stacked: true, listShown: true, detailShown: true,
                               sourceScrolls: false, outside: [] }, `at ${width} px`);
    assert.ok(await page.locator(`button[data-run="${runId}"]`).isVisible());
    assert.ok(await page.locator('section[data-phase="price"] [data-testid="approve"]').isVisible());
  }
  await shoot(page, 'narrow');
});

// How the highlighter reads sources that once fooled it, evaluated in the page. `code` must not
// be drawn as a comment; `comment` must be exactly one.
const highlighterCases = [
  // Automatic semicolon insertion: the engine ends `let note` at the line break, so the next
  // line's `/[//]/` is a regular expression and the assignment runs.
  { source: 'let note\n/[//]/; input.percent = 50; // c', code: ['input.percent = 50;'] },
  { source: 'x: for (;;) { break x\n/[//]/; launch(); }', code: ['launch();'] },
  { source: 'x = /\\//; launch();', code: ['launch();'] },
  { source: 'x = /[/]/; launch(); // c', code: ['launch();'], comment: ['// c'] },
  { source: 'x = /[\\]/]/; launch(); // c', code: ['launch();'], comment: ['// c'] },
  { source: 'x = a / b / c; launch(); // c', code: ['launch();'], comment: ['// c'] },
  { source: 'if (ok) /\\//.test(s); launch(); // c', code: ['launch();'], comment: ['// c'] },
  { source: 'x = f(a) / 2; y = "/"; z = "//"; launch(); // c', code: ['launch();'], comment: ['// c'] },
  { source: 'x = a.if(b) / 2; launch(); // c', code: ['launch();'], comment: ['// c'] },
  { source: 'return /re/g.test(s) && launch(); // c', code: ['launch();'], comment: ['// c'] },
  { source: 'if (ok) {}\n/\\//.test(s); launch(); // c', code: ['launch();'] },
  { source: 'let a = 1; let b = a++ / 2; x = "/"; launch(); // c', code: ['launch();'] },
  { source: 's = "//" + \'/*\'; launch(); /* c */', code: ['launch();'], comment: ['/* c */'] },
  { source: 's = `//${"/*"}`; launch(); // c', code: ['launch();'], comment: ['// c'] },
  { source: 's = `${ {a: "}"}.a }//`; launch();', code: ['launch();'] },
  { source: "s = '\\\r\n// still the string'; launch();", code: ['launch();', '// still the string'] },
  { source: "s = '\u2028// still the string'; launch();", code: ['launch();', '// still the string'] },
  { source: 'x = 1 // c\rlaunch();', code: ['launch();'], comment: ['// c'] },
  { source: 'x = 1 // c\u2028launch();', code: ['launch();'], comment: ['// c'] },
  { source: 'x = 1 // c\u2029launch();', code: ['launch();'], comment: ['// c'] },
  { source: 'x = 1 <!-- c\nlaunch();', code: ['launch();'], comment: ['<!-- c'] },
  { source: 'x = 1\n--> c\nlaunch();', code: ['launch();'], comment: ['--> c'] },
  { source: 'x = 1 /* a\n*/ --> c\nlaunch();', code: ['launch();'], comment: ['--> c'] },
  { source: 'let y = 5; x = y-->0; launch(); // c', code: ['launch();'], comment: ['// c'] },
];

// `source` as a SpiderMonkey program body is wrapped (strict, as the engine compiles programs).
function parses(body) {
  try {
    new vm.Script(`'use strict'; (async function (input, tools) {${body}\n})`);
    return true;
  } catch (_) {
    return false;
  }
}

// The source with its comments' text replaced by characters that are a syntax error anywhere
// but in a comment (line breaks kept): if what the highlighter calls a comment held code, the
// engine would no longer parse it.
function garbleComments(source, tokens) {
  let garbled = source;
  for (const token of tokens.filter((t) => t.kind === 'com')) {
    const text = source.slice(token.start, token.end);
    const keep = text.startsWith('<!--') ? 4 : text.startsWith('-->') ? 3 : 2;
    const tail = text.startsWith('/*') ? 2 : 0;
    const inner = text.slice(keep, text.length - tail).replace(/[^\n\r\u2028\u2029]/g, ')');
    garbled = garbled.slice(0, token.start) + text.slice(0, keep) + inner +
              text.slice(text.length - tail) + garbled.slice(token.end);
  }
  return garbled;
}

test('the highlighter never draws code as a comment, and numbers lines as the engine does',
  async () => {
    const { copy, server, page } = await setUp();
    await page.goto(server.console);  // no session: the page's own scripts are enough
    const examples = ['examples/quote/price.js', 'examples/quote/discount.js', 'examples/catalog/total.js']
      .map((file) => fs.readFileSync(path.join(sourceDir, file), 'utf8'));
    const sources = [...highlighterCases.map((c) => c.source), ...examples, craftedPrice];
    const tokenized = await page.evaluate((all) => all.map((s) => SourceView.tokenize(s)), sources);

    sources.forEach((source, index) => {
      const tokens = tokenized[index];
      const comments = tokens.filter((t) => t.kind === 'com');
      const { code = [], comment = [] } = highlighterCases[index] || {};
      for (const text of code) {
        const at = source.indexOf(text);
        assert.ok(at >= 0);
        assert.ok(!comments.some((t) => t.start < at + text.length && at < t.end),
                  `${JSON.stringify(source)}: ${text} is code`);
      }
      for (const text of comment) {
        const at = source.indexOf(text);
        assert.ok(comments.some((t) => t.start === at && t.end === at + text.length),
                  `${JSON.stringify(source)}: ${text} is a comment`);
      }
      // The engine agrees (V8 here, which lexes scripts as SpiderMonkey does). The cases are
      // statements; a program is an expression, returned.
      const prefix = index < highlighterCases.length ? '' : 'return (';
      const body = `${prefix}${source}${prefix ? '\n)' : ''}`;
      const shifted = tokens.map((t) => ({ ...t, start: t.start + prefix.length, end: t.end + prefix.length }));
      assert.ok(parses(body), `${JSON.stringify(source)} parses`);
      assert.ok(parses(garbleComments(body, shifted)),
                `${JSON.stringify(source)}: what is drawn as a comment is one`);
    });

    // Where it cannot be sure (a '/' after a '}'), it stops highlighting and says so.
    assert.match(await page.evaluate(() => SourceView.summary(
      SourceView.render('if (ok) {}\n/\\//.test(s); launch(); // c').marks)), /stops at line 2/);

    // Line numbers: the engine's own, read back from a program whose lines end in every way.
    const probe = '() => {\rconst a = new Error().lineNumber;\u2028const b = new Error().lineNumber;' +
      '\u2029const c = new Error().lineNumber;\r\nconst d = new Error().lineNumber; /* x\ry */ ' +
      'const e = new Error().lineNumber;\nreturn [a, b, c, d, e]; }';
    const engineLines = runProgram(copy.scratch, probe, null);
    const shownLines = await page.evaluate((text) => {
      const { rows } = SourceView.render(text);
      return ['a', 'b', 'c', 'd', 'e'].map((name) => {
        const row = rows.find((r) => r.cells[1].textContent.includes(`const ${name} =`));
        return Number(row.cells[0].textContent);
      });
    }, probe);
    assert.deepEqual(engineLines, [2, 3, 4, 5, 6]);
    assert.deepEqual(shownLines, engineLines);
  });
