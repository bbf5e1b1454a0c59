// `codemode mcp --mode direct` over stdio, driven by the official MCP TypeScript SDK client,
// against real downstream servers: @modelcontextprotocol/server-everything and server-memory
// (pinned in package-lock.json) and fixture_server.mjs (the SDK's own Server class).
// Run by ctest (tests/CMakeLists.txt) with CODEMODE_CLI set; `npm ci` here is done by
// scripts/install-deps. A missing node_modules makes this file fail, never skip.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { catalogPriceTool, cli, everythingServer, here, memoryServer, modules, sourceDir } from './environment.mjs';


const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'codemode-mcp-test-'));
const configPath = path.join(scratch, 'codemode.json');
fs.writeFileSync(configPath, JSON.stringify({
  servers: {
    everything: everythingServer,
    memory: memoryServer(path.join(scratch, 'memory.jsonl')),
    fixture: { command: process.execPath, args: [path.join(here, 'fixture_server.mjs')],
               cwd: here, timeoutMs: 20000 },
    shown: { command: process.execPath, args: [path.join(here, 'fixture_server.mjs')],
             exposeErrors: true },
  },
  tools: [catalogPriceTool()],
}));

let client;
let transport;
const transportErrors = [];

async function connect(protocolVersion) {
  const c = new Client({ name: 'codemode-tests', version: '1.0.0' });
  const t = new StdioClientTransport({ command: cli, args: ['mcp', '--config', configPath],
                                       stderr: 'pipe' });
  c.onerror = (error) => transportErrors.push(error);
  await c.connect(t);
  return { c, t };
}

before(async () => {
  ({ c: client, t: transport } = await connect());
});

after(async () => {
  await client.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const textOf = (result) => result.content.filter((b) => b.type === 'text').map((b) => b.text).join('');

test('initialize negotiates a version the server speaks and names codemode', () => {
  assert.equal(client.getServerVersion().name, 'codemode');
  assert.deepEqual(client.getServerCapabilities().tools, { listChanged: false });
});

test('tools/list carries every configured tool, namespaced, deterministically', async () => {
  const first = await client.listTools();
  const second = await client.listTools();
  assert.deepEqual(first, second);
  const names = first.tools.map((tool) => tool.name);
  for (const name of ['catalog.price', 'everything.get-sum', 'everything.echo',
                      'memory.read_graph', 'memory.create_entities', 'fixture.pid']) {
    assert.ok(names.includes(name), name);
  }
  assert.deepEqual([...names].sort(), names);
  const byName = Object.fromEntries(first.tools.map((tool) => [tool.name, tool]));
  assert.equal(byName['memory.read_graph'].annotations.readOnlyHint, true);
  assert.equal(byName['memory.create_entities'].annotations.readOnlyHint, false);
  assert.equal(byName['catalog.price'].outputSchema.type, 'object');
  assert.ok(byName['everything.get-sum'].inputSchema.properties.a);
});

test('a command tool answers with structuredContent and the same JSON as text', async () => {
  const result = await client.callTool({ name: 'catalog.price', arguments: { sku: 'abc' } });
  assert.equal(result.isError, false);
  assert.deepEqual(result.structuredContent, { cents: 300 });
  assert.deepEqual(JSON.parse(textOf(result)), { cents: 300 });
});

test('a downstream tool is called through codemode', async () => {
  const result = await client.callTool({ name: 'everything.get-sum', arguments: { a: 2, b: 3 } });
  assert.equal(result.isError, false);
  assert.match(textOf(result), /5/);
});

test('a downstream structuredContent passes the advertised outputSchema', async () => {
  const result = await client.callTool({ name: 'everything.get-structured-content',
                                         arguments: { location: 'New York' } });
  assert.equal(result.isError, false);
  assert.equal(typeof result.structuredContent.temperature, 'number');
});

test('a downstream image reaches the caller as its content blocks', async () => {
  const result = await client.callTool({ name: 'everything.get-tiny-image', arguments: {} });
  assert.notEqual(result.isError, true);
  assert.equal(result.structuredContent, undefined);
  const blocks = result.content;
  assert.deepEqual(blocks.map((block) => block.type), ['text', 'image', 'text']);
  assert.equal(blocks[1].mimeType, 'image/png');
  assert.ok(blocks[1].data.startsWith('iVBORw0KGgo'));  // a PNG, base64
});

test('a second real downstream keeps state across calls', async () => {
  const created = await client.callTool({ name: 'memory.create_entities', arguments: {
    entities: [{ name: 'codemode', entityType: 'project', observations: ['speaks MCP'] }] } });
  assert.equal(created.isError, false);
  const graph = await client.callTool({ name: 'memory.read_graph', arguments: {} });
  assert.match(textOf(graph), /speaks MCP/);
});

test('input that fails the schema is a tool error with a stable code', async () => {
  const result = await client.callTool({ name: 'catalog.price', arguments: { sku: 3 } });
  assert.equal(result.isError, true);
  assert.deepEqual(JSON.parse(textOf(result)), { code: 'input_schema', message: '/sku: must be string' });
});

test('an unknown tool is a JSON-RPC invalid params error', async () => {
  await assert.rejects(client.callTool({ name: 'nope.nothing', arguments: {} }),
                       (error) => error.code === -32602);
});

test('a downstream failure never shows the downstream text', async () => {
  const result = await client.callTool({ name: 'fixture.fail', arguments: {} });
  assert.equal(result.isError, true);
  const text = JSON.stringify(result);
  assert.doesNotMatch(text, /fixture-secret|GITHUB_TOKEN|private/);
  assert.equal(result.structuredContent.code, 'tool_failed');
});

test('a server configured with exposeErrors shows its failure text', async () => {
  const result = await client.callTool({ name: 'shown.fail', arguments: {} });
  assert.equal(result.isError, true);
  assert.equal(result.structuredContent.code, 'tool_failed');
  assert.equal(result.structuredContent.message, 'GITHUB_TOKEN=fixture-secret at /private/cache');
});

test('a downstream that dies fails the call in flight and is restarted on next use', async () => {
  const before = JSON.parse(textOf(await client.callTool({ name: 'fixture.pid', arguments: {} })));
  const crashed = await client.callTool({ name: 'fixture.crash', arguments: {} });
  assert.equal(crashed.isError, true);
  const after = JSON.parse(textOf(await client.callTool({ name: 'fixture.pid', arguments: {} })));
  assert.notEqual(after.pid, before.pid);
  assert.throws(() => process.kill(before.pid, 0));  // the dead one was reaped
});

test('cancelling a call stops it downstream and frees the server within 2 s', async () => {
  const controller = new AbortController();
  const started = Date.now();
  const call = client.callTool({ name: 'fixture.slow', arguments: {} }, undefined,
                               { signal: controller.signal });
  setTimeout(() => controller.abort('test'), 200);
  await assert.rejects(call);
  let cancellations = 0;
  while (Date.now() - started < 2200) {
    const counted = await client.callTool({ name: 'fixture.cancellations', arguments: {} });
    cancellations = JSON.parse(textOf(counted)).cancellations;
    if (cancellations > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(cancellations, 1);
  assert.ok(Date.now() - started < 2200);
});

test('a long call with a progress token gets progress while it runs', async () => {
  const seen = [];
  const result = await client.callTool(
    { name: 'everything.trigger-long-running-operation', arguments: { duration: 2, steps: 2 } },
    undefined, { onprogress: (p) => seen.push(p.progress), resetTimeoutOnProgress: true });
  assert.equal(result.isError, false);
  assert.ok(seen.length >= 1, 'at least one progress notification');
  seen.forEach((value, index) => assert.equal(value, index + 1));
});

test('a short call with a progress token gets its answer and no stray progress', async () => {
  const result = await client.callTool({ name: 'everything.echo', arguments: { message: 'hi' } },
                                       undefined, { onprogress: () => {} });
  assert.equal(result.isError, false);
});

test('both protocol versions are negotiated', () => {
  for (const version of ['2025-06-18', '2025-11-25']) {
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {
      protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    const run = spawnSync(cli, ['mcp', '--config', configPath], { input: init + '\n',
                                                                  encoding: 'utf8' });
    const response = JSON.parse(run.stdout.trim().split('\n')[0]);
    assert.equal(response.result.protocolVersion, version);
  }
});

test('malformed, batched, early and oversized messages get JSON-RPC errors; serving goes on', () => {
  const tools = path.join(sourceDir, 'examples/catalog/tools.json');
  const lines = [
    '{not json',
    JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }]),
    JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping', params: { pad: 'x'.repeat(9 << 20) } }),
    JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'initialize', params: {
      protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'ping' }),
  ];
  const run = spawnSync(cli, ['mcp', '--config', tools], { input: lines.join('\n') + '\n',
                                                           encoding: 'utf8',
                                                           maxBuffer: 1 << 20 });
  assert.equal(run.status, 0);
  const out = run.stdout.trim().split('\n').map((line) => JSON.parse(line));
  assert.deepEqual(out.map((m) => [m.id, m.error?.code ?? 'ok']),
                   [[null, -32700], [null, -32600], [2, -32600], [null, -32600], [4, 'ok'],
                    [5, 'ok']]);
});

test('a quota class naming a tool its server does not list fails the start, naming the field', () => {
  const typo = path.join(scratch, 'typo.json');
  fs.writeFileSync(typo, JSON.stringify({
    servers: { fixture: { command: process.execPath, args: [path.join(here, 'fixture_server.mjs')] } },
    policy: { quotaClasses: { pages: { cap: 2, tools: ['fixture.pid', 'fixture.pdi'] } } },
  }));
  const run = spawnSync(cli, ['mcp', '--config', typo], { input: '', encoding: 'utf8' });
  assert.notEqual(run.status, 0);
  assert.equal(run.stdout, '');
  assert.match(run.stderr,
               /policy\.quotaClasses\.pages\.tools\[1\] names a tool its server does not list/);
});

test('stdout carried only protocol messages', () => {
  assert.deepEqual(transportErrors, []);
});

test('a bad config fails at start naming the field, with nothing on stdout', () => {
  const bad = path.join(scratch, 'bad.json');
  fs.writeFileSync(bad, JSON.stringify({ policy: { hostCalls: 17 } }));
  const run = spawnSync(cli, ['mcp', '--config', bad], { input: '', encoding: 'utf8' });
  assert.equal(run.status, 2);
  assert.equal(run.stdout, '');
  assert.equal(JSON.parse(run.stderr).error.message, 'policy.hostCalls exceeds its maximum of 16.');
});
