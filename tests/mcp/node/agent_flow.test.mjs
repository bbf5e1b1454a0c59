// What code mode promises an agent: pointed at `codemode mcp --mode code` with two real downstream
// servers from npm (@modelcontextprotocol/server-everything and server-memory, pinned in
// package-lock.json), it lists the one `code` tool, reads the generated declarations, and in one
// program discovers both servers' tools and calls them, keeping the memory server's state across
// calls. Driven by the official MCP TypeScript SDK client over stdio.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cli, everythingServer, memoryServer, writeConfig } from './environment.mjs';

const { scratch, configPath } = writeConfig('codemode-mcp-agent-', {});
fs.writeFileSync(configPath, JSON.stringify({
  servers: {
    everything: everythingServer,
    memory: memoryServer(path.join(scratch, 'memory.jsonl')),
  },
}));

let client;

before(async () => {
  client = new Client({ name: 'codemode-agent-flow', version: '1.0.0' });
  await client.connect(new StdioClientTransport({
    command: cli, args: ['mcp', '--mode', 'code', '--config', configPath], stderr: 'ignore' }));
});

after(async () => {
  await client.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const run = (code) => client.callTool({ name: 'code', arguments: { code } });

test('the code tool declares both servers in TypeScript', async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name), ['code']);
  const { description } = tools[0];
  for (const declared of ['readonly everything', 'readonly memory', 'create_entities(',
                          'read_graph(', 'get_sum(']) {
    assert.ok(description.includes(declared), declared);
  }
});

test('one program discovers and calls tools of both servers', async () => {
  const result = await run(`
    const namespaces = codemode.help().namespaces;
    const found = codemode.search('entities').map((entry) => entry.name);
    const schema = codemode.help('memory.create_entities').inputSchema;
    await codemode.memory.create_entities({ entities: [
      { name: 'codemode', entityType: 'project', observations: ['runs JavaScript in a sandbox'] },
    ] });
    const sum = await codemode.everything.get_sum({ a: 19, b: 23 });
    const graph = await codemode.memory.read_graph({});
    return { namespaces, found, required: schema.required, sum,
             entities: graph.entities.map((entity) => entity.name) };`);
  assert.notEqual(result.isError, true, JSON.stringify(result));
  const { namespaces, found, required, sum, entities } = result.structuredContent.result;
  assert.deepEqual([...namespaces].sort(), ['everything', 'memory']);
  assert.ok(found.includes('memory.create_entities'), found.join());
  assert.deepEqual(required, ['entities']);
  assert.match(JSON.stringify(sum), /42/);
  assert.deepEqual(entities, ['codemode']);
});

test("the memory server's state persists into the next program", async () => {
  const result = await run(`
    const graph = await codemode.memory.search_nodes({ query: 'sandbox' });
    return graph.entities.map((entity) => entity.observations).flat();`);
  assert.deepEqual(result.structuredContent.result, ['runs JavaScript in a sandbox']);
});
