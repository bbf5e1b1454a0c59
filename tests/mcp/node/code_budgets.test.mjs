// The per-invocation budgets of `codemode mcp --mode code` at MCP level, driven by the official MCP
// TypeScript SDK client over stdio: per-call and cumulative host-result bytes (docs/mcp.md's
// example: 1,024 a call, 2,048 in all, the third 911-byte result refused), quota units consumed by
// failed calls, the 17th host call (caught in the program, and rethrown to the client), concurrency
// past the cap, and console capture on, off and past its cap. fixture_server.mjs answers results of
// a chosen size.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cli, here, writeConfig } from './environment.mjs';

const servers = { fixture: { command: process.execPath, args: [path.join(here, 'fixture_server.mjs')] } };

// Budgets: per call 1,024 and cumulative 2,048 bytes, 2 concurrent calls, 2 page units; no console.
// These are the security boundary's own budget tests, in its world: the standard profile.
const budgets = writeConfig('codemode-mcp-budgets-', {
  servers,
  policy: { hostResultBytes: 1024, cumulativeHostResultBytes: 2048, hostConcurrency: 2,
            quotaClasses: { pages: { cap: 2, tools: ['fixture.fail', 'fixture.pid'] } },
            programProfile: 'standard' },
});
// Console capture on, 256 bytes of logs.
const logging = writeConfig('codemode-mcp-logs-', {
  servers, policy: { consoleLogs: true, consoleLogBytes: 256, programProfile: 'standard' } });
// The same budgets in the model profile (the server's default), where calls wait for a slot.
const model = writeConfig('codemode-mcp-model-', {
  servers, policy: { hostConcurrency: 2, consoleLogs: true, consoleLogBytes: 256 } });

const clients = {};

async function connect(configPath) {
  const client = new Client({ name: 'codemode-budget-tests', version: '1.0.0' });
  await client.connect(new StdioClientTransport({
    command: cli, args: ['mcp', '--mode', 'code', '--config', configPath], stderr: 'pipe' }));
  return client;
}

before(async () => {
  clients.budgets = await connect(budgets.configPath);
  clients.logging = await connect(logging.configPath);
  clients.model = await connect(model.configPath);
});

after(async () => {
  for (const client of Object.values(clients)) await client.close();
  for (const { scratch } of [budgets, logging, model]) {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});

// The structuredContent of one `code` call (checked against its text content).
async function run(client, code) {
  const result = await client.callTool({ name: 'code', arguments: { code } });
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
  return result.structuredContent;
}

// Each call's outcome inside the program: 'ok' or the thrown Error's code.
const collect = `
  const codes = [];
  const attempt = async (call) => {
    try { await call(); codes.push('ok'); } catch (e) { codes.push(e.code); }
  };`;

test('a result over hostResultBytes is a catchable host_result_bytes_limit', async () => {
  const shown = await run(clients.budgets, `
    try { await codemode.fixture.text({ n: 2000 }); return 'delivered'; }
    catch (e) { return { code: e.code, message: e.message, operation: e.operation }; }`);
  assert.deepEqual(shown.result, { code: 'host_result_bytes_limit',
                                   message: 'host result exceeds the per-call byte budget',
                                   operation: 'fixture.text' });
});

test('the containment example: the third 911-byte result passes the cumulative budget', async () => {
  const shown = await run(clients.budgets, `${collect}
    for (let i = 0; i < 3; i++) await attempt(() => codemode.fixture.text({ n: 900 }));
    return codes;`);
  assert.deepEqual(shown.result, ['ok', 'ok', 'cumulative_host_bytes_limit']);
  // Per invocation: the next call starts with the whole budget.
  const next = await run(clients.budgets, `return (await codemode.fixture.text({ n: 900 })).text.length;`);
  assert.deepEqual(next, { result: 900 });
});

test('quota units are consumed by failed calls', async () => {
  const shown = await run(clients.budgets, `${collect}
    await attempt(() => codemode.fixture.fail({}));
    await attempt(() => codemode.fixture.pid({ unexpected: 1 }));
    await attempt(() => codemode.fixture.pid({}));
    return codes;`);
  assert.deepEqual(shown.result, ['tool_failed', 'invalid_arguments', 'pages_limit']);
  const next = await run(clients.budgets, `return typeof (await codemode.fixture.pid({})).pid;`);
  assert.deepEqual(next, { result: 'number' });
});

test('the 17th host call is host_calls_limit, caught or rethrown', async () => {
  const caught = await run(clients.budgets, `${collect}
    for (let i = 0; i < 17; i++) await attempt(() => codemode.fixture.wait({ ms: 0 }));
    return codes;`);
  assert.deepEqual(caught.result, [...Array(16).fill('ok'), 'host_calls_limit']);
  const rethrown = await run(clients.budgets, `
    for (let i = 0; i < 17; i++) {
      try { await codemode.fixture.wait({ ms: 0 }); }
      catch (e) { if (e.code === 'host_calls_limit') throw e; }
    }
    return 'not reached';`);
  assert.deepEqual(rethrown, { code: 'host_calls_limit', message: 'host-call budget exhausted' });
});

test('a call past hostConcurrency is host_concurrency_limit, not queued', async () => {
  const shown = await run(clients.budgets, `
    const settled = await Promise.allSettled([1, 2, 3].map(() => codemode.fixture.wait({ ms: 300 })));
    return settled.map((s) => (s.status === 'fulfilled' ? 'ok' : s.reason.code));`);
  assert.deepEqual(shown.result, ['ok', 'ok', 'host_concurrency_limit']);
});

test('in the model profile, calls past hostConcurrency wait for a slot', async () => {
  const shown = await run(clients.model, `
    const settled = await Promise.allSettled([1, 2, 3, 4, 5].map(() => codemode.fixture.wait({ ms: 100 })));
    return settled.map((s) => (s.status === 'fulfilled' ? 'ok' : s.reason.code));`);
  assert.deepEqual(shown.result, ['ok', 'ok', 'ok', 'ok', 'ok']);
});

test('in the model profile, a throw keeps the worker\'s logs and says where it was', async () => {
  const shown = await run(clients.model, `
    for (let i = 0; i < 100; i++) console.log('line ' + i);
    throw new Error('after logging');`);
  assert.equal(shown.code, 'code_rejected');
  assert.equal(shown.name, 'Error');
  assert.equal(shown.line, 3);
  assert.equal(shown.logs[0], 'line 0');
  assert.equal(shown.logs.at(-1), '[logs truncated]');
  assert.ok(Buffer.byteLength(JSON.stringify(shown.logs)) <= 256);
});

test('without consoleLogs there is no console and no logs', async () => {
  assert.deepEqual(await run(clients.budgets, 'return typeof console;'), { result: 'undefined' });
});

test('console lines come back as logs beside the result', async () => {
  const shown = await run(clients.logging, `
    console.log('sum', 1 + 2, { a: [1] });
    console.warn('careful');
    return (await codemode.fixture.text({ n: 3 })).text;`);
  assert.deepEqual(shown, { result: 'xxx', logs: ['sum 3 {"a":[1]}', '[warn] careful'] });
});

test('logs past consoleLogBytes end with a marker; a throw keeps them', async () => {
  const shown = await run(clients.logging, `
    for (let i = 0; i < 100; i++) console.log('line ' + i);
    throw new Error('after logging');`);
  assert.equal(shown.code, 'code_rejected');
  assert.equal(shown.message, 'after logging');
  assert.equal(shown.logs[0], 'line 0');
  assert.equal(shown.logs.at(-1), '[logs truncated]');
  assert.ok(Buffer.byteLength(JSON.stringify(shown.logs)) <= 256);
});
