// Hostile programs and servers at the MCP level (docs/mcp.md, "Tests"), driven by the official MCP
// TypeScript SDK client: `codemode mcp --mode code` over stdio runs the test-hooks worker
// (codemode-worker-testhooks, CODEMODE_WORKER_TESTHOOKS set by ctest), so a program can act like
// an exploited engine: crash, exit, break the frame protocol, flood stderr. Also: cancellation kills the worker (its process
// is gone and reaped within 2 s), a downstream's token and paths never reach the client, the
// server's invocation cap over stdio and across HTTP sessions, a call cancelled while its downstream
// restarts (and hangs there), memory and stack pressure, and results that are not JSON. Each case ends with a working call: the server recovers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { catalogPriceTool, cli, here, writeConfig } from './environment.mjs';

const testhooksWorker = process.env.CODEMODE_WORKER_TESTHOOKS;
assert.ok(testhooksWorker && fs.existsSync(testhooksWorker),
          'CODEMODE_WORKER_TESTHOOKS must name the built codemode-worker-testhooks binary');

// A token and a directory a downstream server knows, which must never reach the client.
const secretToken = 'sk-live-7f3a9c-adversarial-fixture-token';
const { scratch, configPath } = writeConfig('codemode-mcp-adversarial-', {});
const privateDir = fs.mkdtempSync(path.join(scratch, 'private-cache-'));
fs.writeFileSync(configPath, JSON.stringify({
  servers: {
    fixture: { command: process.execPath, args: [path.join(here, 'fixture_server.mjs')],
               env: { FIXTURE_TOKEN: secretToken }, cwd: privateDir },
  },
  tools: [catalogPriceTool({ withOutputSchema: false })],
  // One invocation at a time, so the cap is easy to reach; a 3 s wall limit.
  policy: { wallTimeMillis: 3000, serverInvocations: 1, serverWorkers: 1, heapBytes: 16 << 20 },
}));

let client;
let transport;
let serverStderr = '';

before(async () => {
  client = new Client({ name: 'codemode-adversarial-tests', version: '1.0.0' });
  transport = new StdioClientTransport({
    command: cli, args: ['mcp', '--mode', 'code', '--config', configPath, '--worker', testhooksWorker],
    stderr: 'pipe' });
  transport.stderr.on('data', (chunk) => { serverStderr += chunk; });
  await client.connect(transport);
});

after(async () => {
  await client.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const run = (code, options) => client.callTool({ name: 'code', arguments: { code } }, undefined,
                                               options);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function assertRecovered() {
  assert.deepEqual((await run('return "recovered"')).structuredContent, { result: 'recovered' });
}

// The pids of a process's children (every thread's), from /proc. A thread that ends between the
// listing and the read (an idle call-pool thread, say) had no children left to report.
function childrenOfThread(pid, tid) {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8')
      .split(' ').filter(Boolean).map(Number);
  } catch (error) {
    if (error.code === 'ENOENT' || error.code === 'ESRCH') return [];
    throw error;
  }
}

function childrenOf(pid) {
  const tasks = fs.readdirSync(`/proc/${pid}/task`);
  return new Set(tasks.flatMap((tid) => childrenOfThread(pid, tid)));
}

// True while /proc shows `pid`, including as a zombie not yet reaped.
const processExists = (pid) => fs.existsSync(`/proc/${pid}`);

test('a worker that crashes is worker_exited, and the next call works', async () => {
  for (const hook of ['__codemodeTestHook("segfault")', '__codemodeTestHook("exit", 0)']) {
    const result = await run(`${hook}; return 1;`);
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent.code, 'worker_exited', hook);
    await assertRecovered();
  }
});

// The frame pipe is the worker's to write once it runs the program: an exploited engine can put
// anything there. Four zero bytes are a frame of length 0, which no frame may have.
test('a worker that breaks the frame protocol is worker_protocol_error, and the next call works',
     async () => {
  const result = await run('__codemodeTestHook("write_stdout", "\\0\\0\\0\\0"); return 1;');
  assert.equal(result.isError, true);
  assert.deepEqual(result.structuredContent, {
    code: 'worker_protocol_error',
    message: 'The sandbox worker broke the parent-worker protocol and was stopped; its details '
      + 'are withheld.' });
  await assertRecovered();
});

// The server's JSON events on stderr since `offset` whose event is `name`.
const eventsSince = (offset, name) => serverStderr.slice(offset).split('\n')
  .filter((line) => line.startsWith('{') && line.endsWith('}')).map((line) => JSON.parse(line))
  .filter((line) => line.event === name);

// The same, once there is one: the server writes its event before the answer, but the client may
// read its stdout before its stderr.
async function eventSince(offset, name) {
  for (let waited = 0; eventsSince(offset, name).length === 0 && waited < 2000; waited += 10) {
    await sleep(10);
  }
  return eventsSince(offset, name);
}

test('a worker that floods its stderr is never shown, and the call still succeeds', async () => {
  const before = serverStderr.length;
  const result = await run('__codemodeTestHook("write_stderr", "LEAKED-STDERR ", 20000); return 7;');
  assert.deepEqual(result.structuredContent, { result: 7 });
  assert.ok(!JSON.stringify(result).includes('LEAKED-STDERR'));
  assert.ok(!serverStderr.slice(before).includes('LEAKED-STDERR'));
  // The server's log says that it wrote, how much up to 64 KiB, and that there was more.
  const [event, ...others] = await eventSince(before, 'code_worker_diagnostics');
  assert.equal(others.length, 0);
  assert.equal(event.status, 'succeeded');
  assert.equal(event.diagnosticBytes, 65536);
  assert.equal(event.diagnosticsTruncated, true);
});

test('a worker that writes a little to stderr is counted exactly in the server log', async () => {
  const before = serverStderr.length;
  const result = await run('__codemodeTestHook("write_stderr", "LEAKED-STDERR ", 3); return 8;');
  assert.deepEqual(result.structuredContent, { result: 8 });
  assert.ok(!serverStderr.slice(before).includes('LEAKED-STDERR'));
  const events = await eventSince(before, 'code_worker_diagnostics');
  assert.equal(events.length, 1);
  assert.equal(events[0].diagnosticBytes, 3 * 'LEAKED-STDERR '.length);
  assert.equal(events[0].diagnosticsTruncated, false);
  await assertRecovered();
  assert.equal(eventsSince(before, 'code_worker_diagnostics').length, 1, 'a quiet worker logs none');
});

test('cancellation kills the worker: its process is gone and reaped within 2 s', async () => {
  const mcpPid = transport.pid;
  const known = childrenOf(mcpPid);
  const controller = new AbortController();
  const call = run('while (true) {}', { signal: controller.signal });
  let workers = [];
  for (let waited = 0; workers.length === 0 && waited < 2000; waited += 10) {
    await sleep(10);
    workers = [...childrenOf(mcpPid)].filter((pid) => !known.has(pid));
  }
  assert.equal(workers.length, 1, 'the running program has exactly one worker process');
  const cancelled = Date.now();
  controller.abort('test');
  await assert.rejects(call);
  while (processExists(workers[0]) && Date.now() - cancelled < 2000) await sleep(10);
  assert.equal(processExists(workers[0]), false, 'the worker was killed and reaped');
  assert.ok(Date.now() - cancelled < 2000);
  await assertRecovered();
});

test("a downstream's token and paths never reach the client", async () => {
  const result = await run(`
    const seen = [];
    for (const method of ['leak', 'leak_thrown']) {
      try {
        await codemode.fixture[method]({});
        seen.push('no error');
      } catch (error) {
        seen.push({ message: error.message, code: error.code, operation: error.operation,
                    text: String(error), json: JSON.stringify(error), stack: String(error.stack) });
      }
    }
    return seen;`);
  const text = JSON.stringify(result);
  assert.notEqual(result.isError, true, text);
  assert.equal(result.structuredContent.result.length, 2, text);
  for (const seen of result.structuredContent.result) {
    assert.equal(seen.code, 'tool_failed', text);
    assert.ok(['fixture.leak', 'fixture.leak_thrown'].includes(seen.operation), text);
  }
  for (const secret of [secretToken, 'sk-live', privateDir, scratch, 'private-cache']) {
    assert.ok(!text.includes(secret), `the client saw ${secret}`);
    assert.ok(!serverStderr.includes(secret), `codemode's stderr shows ${secret}`);
  }
});

test('the program sees no environment, file or process of the server', async () => {
  const result = await run(`
    return [typeof process, typeof require, typeof fetch, typeof Deno, typeof os, typeof std,
            typeof globalThis.environment, typeof readFile, typeof snarf, typeof load];`);
  assert.deepEqual(result.structuredContent.result, Array(10).fill('undefined'));
});

test('a call past serverInvocations fails fast, and the server recovers', async () => {
  const controller = new AbortController();
  const looping = run('while (true) {}', { signal: controller.signal });
  await sleep(200);
  const refused = await run('return 1');
  assert.equal(refused.structuredContent.code, 'server_invocations_limit');
  controller.abort('test');
  await assert.rejects(looping);
  let next;
  const cancelled = Date.now();
  do {
    next = (await run('return "recovered"')).structuredContent;
    if (next.code) await sleep(25);
  } while (next.code && Date.now() - cancelled < 2000);
  assert.deepEqual(next, { result: 'recovered' });
});

// Its own direct-mode server: a downstream restarted after a crash that never answers initialize,
// one invocation at a time, and a timeoutMs far beyond the 2 s the cancelled call may hold its slot.
test('a call cancelled while its downstream restarts frees its slot within 2 s', async () => {
  const { scratch: own, configPath: ownConfig } = writeConfig('codemode-mcp-restart-', {});
  fs.writeFileSync(ownConfig, JSON.stringify({
    servers: {
      restarting: { command: process.execPath, args: [path.join(here, 'fixture_server.mjs')],
                    env: { FIXTURE_RESTART_MARKER: path.join(own, 'restart-hangs') },
                    timeoutMs: 30000 },
    },
    tools: [catalogPriceTool({ withOutputSchema: false })],
    policy: { serverInvocations: 1 },
  }));
  const direct = new Client({ name: 'codemode-restart-tests', version: '1.0.0' });
  await direct.connect(new StdioClientTransport({ command: cli, args: ['mcp', '--config', ownConfig],
                                                  stderr: 'ignore' }));
  try {
    const crashed = await direct.callTool({ name: 'restarting.crash', arguments: {} });
    assert.equal(crashed.isError, true);
    const controller = new AbortController();
    const restarting = direct.callTool({ name: 'restarting.pid', arguments: {} }, undefined,
                                       { signal: controller.signal });
    await sleep(200);
    const cancelled = Date.now();
    controller.abort('test');
    await assert.rejects(restarting);
    await direct.ping();
    let price;
    do {
      price = await direct.callTool({ name: 'catalog.price', arguments: { sku: 'ab' } });
      if (price.isError) await sleep(25);
    } while (price.isError && Date.now() - cancelled < 2000);
    assert.notEqual(price.isError, true, JSON.stringify(price));
    assert.ok(Date.now() - cancelled < 2000, 'the invocation slot was held past 2 s');
  } finally {
    await direct.close();
    fs.rmSync(own, { recursive: true, force: true });
  }
});

test('memory and stack pressure end cleanly, and the server recovers', async () => {
  const memory = await run('const a = []; while (true) a.push({ n: a.length, s: "x" + a.length });');
  assert.deepEqual(memory.structuredContent,
                   { code: 'code_rejected', message: 'JavaScript exceeded its heap budget' });
  const recursion = await run('const f = (n) => f(n + 1) + 1; return f(0);');
  assert.equal(recursion.structuredContent.code, 'code_rejected');
  const caught = await run('const f = (n) => f(n + 1) + 1; try { f(0); } catch (e) { return e.name; }');
  assert.deepEqual(caught.structuredContent, { result: 'InternalError' });
  await assertRecovered();
});

test('a flood of unawaited calls is bounded by the program limits', async () => {
  const result = await run(`
    const calls = [];
    for (let i = 0; i < 2000; i++) calls.push(codemode.catalog.price({ sku: 'ab' }).then(
        () => 'ok', (error) => error.code));
    const outcomes = await Promise.all(calls);
    const count = {};
    for (const outcome of outcomes) count[outcome] = (count[outcome] || 0) + 1;
    return count;`);
  const count = result.structuredContent.result;
  assert.ok(count.ok >= 1 && count.ok <= 16, JSON.stringify(count));
  assert.equal(Object.values(count).reduce((a, b) => a + b, 0), 2000);
  await assertRecovered();
});

// Over HTTP every session draws on the same server-wide caps.
test('HTTP sessions share the server-wide invocation cap', async () => {
  const child = spawn(cli, ['mcp', '--config', configPath, '--mode', 'code', '--transport', 'http',
                            '--listen', '127.0.0.1:0', '--worker', testhooksWorker],
                      { stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    const port = await new Promise((resolve, reject) => {
      readline.createInterface({ input: child.stderr }).on('line', (line) => {
        const event = JSON.parse(line);
        if (event.event === 'mcp_http_listening') resolve(event.port);
      });
      child.on('exit', (code) => reject(new Error(`codemode mcp exited with ${code}`)));
    });
    const url = new URL(`http://127.0.0.1:${port}/mcp`);
    const sessions = [];
    for (let i = 0; i < 2; i++) {
      const session = new Client({ name: `codemode-http-session-${i}`, version: '1.0.0' });
      await session.connect(new StreamableHTTPClientTransport(url));
      sessions.push(session);
    }
    const controller = new AbortController();
    const looping = sessions[0].callTool({ name: 'code', arguments: { code: 'while (true) {}' } },
                                         undefined, { signal: controller.signal });
    await sleep(300);
    const refused = await sessions[1].callTool({ name: 'code', arguments: { code: 'return 1' } });
    assert.equal(refused.structuredContent.code, 'server_invocations_limit');
    controller.abort('test');
    await assert.rejects(looping);
    for (const session of sessions) await session.close();
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.on('exit', resolve);
    });
  }
});

test('a result that is not JSON as it is is code_rejected, never changed', async () => {
  for (const code of ['const a = {}; a.self = a; return a;', 'return { invalid: Infinity };',
                      'return [NaN];', 'return 10n;',
                      'return { toJSON() { throw new Error("no"); } };']) {
    const result = await run(code);
    assert.equal(result.isError, true, code);
    assert.equal(result.structuredContent.code, 'code_rejected', code);
    assert.match(result.structuredContent.message, /^The result is not JSON/, code);
  }
  await assertRecovered();
});
