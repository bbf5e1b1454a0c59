// The server-wide host-operation cap (`serverHostOperations`) queues a call for a bounded time
// (`serverHostOperationWaitMillis`), then answers server_host_operations_limit (docs/mcp.md,
// docs/limits.md), in both modes, driven by the official MCP TypeScript SDK client over stdio:
// one slot, a 200 ms wait, and a tool that holds its slot for 1.5 s.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cli, writeConfig } from './environment.mjs';

const { scratch, configPath } = writeConfig('codemode-mcp-host-operations-', {
  tools: [{ id: 'slow.wait', version: '1', description: 'Answers {} after 1.5 s.', effects: 'read',
            command: ['/bin/sh', '-c', 'sleep 1.5; echo "{}"'] }],
  // Two invocations may run, so that a second call gets past serverInvocations and queues.
  policy: { serverHostOperations: 1, serverHostOperationWaitMillis: 200, serverInvocations: 2 },
});

const clients = {};

async function connect(mode) {
  const client = new Client({ name: 'codemode-host-operation-tests', version: '1.0.0' });
  await client.connect(new StdioClientTransport({
    command: cli, args: ['mcp', '--mode', mode, '--config', configPath], stderr: 'pipe' }));
  return client;
}

before(async () => {
  clients.direct = await connect('direct');
  clients.code = await connect('code');
});

after(async () => {
  for (const client of Object.values(clients)) await client.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

test('direct mode: a call that cannot get a slot within the wait is refused', async () => {
  const started = Date.now();
  const answers = await Promise.all([1, 2].map(async () => {
    const result = await clients.direct.callTool({ name: 'slow.wait', arguments: {} });
    return { result, after: Date.now() - started };
  }));
  const refused = answers.filter(({ result }) => result.isError);
  assert.equal(refused.length, 1, JSON.stringify(answers));
  assert.deepEqual(refused[0].result.structuredContent,
                   { code: 'server_host_operations_limit',
                     message: 'server host-operation capacity is exhausted' });
  // Refused at its bound, not when the slot came free.
  assert.ok(refused[0].after < 1400, `refused after ${refused[0].after} ms`);
  const served = answers.find(({ result }) => !result.isError);
  assert.deepEqual(served.result.structuredContent, {});
});

test('code mode: a program call that cannot get a slot within the wait is refused', async () => {
  const result = await clients.code.callTool({ name: 'code', arguments: { code: `
    const settled = await Promise.allSettled([codemode.slow.wait({}), codemode.slow.wait({})]);
    return settled.map((s) => s.status === 'fulfilled' ? 'ok'
                                                      : [s.reason.code, s.reason.message]);` } });
  assert.notEqual(result.isError, true, JSON.stringify(result));
  const outcomes = result.structuredContent.result;
  assert.equal(outcomes.filter((outcome) => outcome === 'ok').length, 1, JSON.stringify(outcomes));
  assert.deepEqual(outcomes.find((outcome) => outcome !== 'ok'),
                   ['server_host_operations_limit', 'server host-operation capacity is exhausted']);
});

test('code mode: the refusal rethrown is the code call\'s own result', async () => {
  const result = await clients.code.callTool({ name: 'code', arguments: { code: `
    await Promise.all([codemode.slow.wait({}), codemode.slow.wait({})]);
    return 'unreachable';` } });
  assert.equal(result.isError, true, JSON.stringify(result));
  assert.deepEqual(result.structuredContent,
                   { code: 'server_host_operations_limit',
                     message: 'server host-operation capacity is exhausted' });
});
