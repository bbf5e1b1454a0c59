// The approvals console end to end (docs/console.md): `codemode workflow console` serving the
// example quote workflow, driven in Debian's headless Chromium by playwright-core (pinned in
// package-lock.json; no browser is downloaded). A person opens the login link, sees the run
// waiting, reads its source and digest, approves both phases and sees the result and the audit;
// rejects another run; meets a digest that went stale while the page was open; and requests
// without the token or a session, from another origin or for another Host are refused.
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
import { chromium } from 'playwright-core';

const cli = process.env.CODEMODE_CLI;
assert.ok(cli, 'CODEMODE_CLI is not set: run this through ctest');
const sourceDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const exampleDir = path.join(sourceDir, 'examples/quote');
const screenshots = process.env.CODEMODE_CONSOLE_SCREENSHOTS;
const me = os.userInfo().username;
const input = JSON.stringify({ skus: ['ab', 'cde'], percent: 10 });

// A copy of the example workflow in a scratch directory of its own, approvable by this account.
function workflowCopy(extra = {}) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'codemode-console-test-'));
  for (const name of fs.readdirSync(exampleDir)) {
    fs.copyFileSync(path.join(exampleDir, name), path.join(scratch, name));
  }
  fs.chmodSync(path.join(scratch, 'discount.sh'), 0o755);
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

function startRun(copy) {
  const run = spawnSync(cli, ['workflow', 'start', copy.file, '--store', copy.store,
                              '--input', input], { cwd: copy.scratch, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

// Starts the console on a free loopback port; resolves with {process, console, login}.
async function startConsole(copy) {
  const child = spawn(cli, ['workflow', 'console', copy.file, '--store', copy.store,
                            '--listen', '127.0.0.1:0', '--work', '--poll-ms', '100'],
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

async function setUp(extra) {
  const copy = workflowCopy(extra);
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
