// `codemode mcp --transport http` (MCP Streamable HTTP), driven by the official MCP TypeScript
// SDK client's StreamableHTTPClientTransport, in direct and code mode, against a real downstream
// (@modelcontextprotocol/server-everything) and a command tool; plus the transport's own checks
// (bearer token, Origin, DELETE) with plain fetch. Run by ctest with CODEMODE_CLI set.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { catalogPriceTool, everythingServer, startHttpServer, stopServers, writeConfig }
  from './environment.mjs';

const { scratch, configPath } = writeConfig('codemode-mcp-http-', {
  servers: { everything: everythingServer },
  tools: [catalogPriceTool()],
});

const servers = [];

async function connect(url, token) {
  const client = new Client({ name: 'codemode-http-tests', version: '1.0.0' });
  const options = token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {};
  const transport = new StreamableHTTPClientTransport(url, options);
  await client.connect(transport);
  return { client, transport };
}

after(async () => {
  await stopServers(servers);
  fs.rmSync(scratch, { recursive: true, force: true });
});

test('direct mode over HTTP: list and call a downstream tool and a command tool', async () => {
  const { url, stdout } = await startHttpServer(servers, configPath, 'direct');
  const { client, transport } = await connect(url);
  assert.ok(transport.sessionId && /^[0-9a-f]{32}$/.test(transport.sessionId));
  const names = (await client.listTools()).tools.map((tool) => tool.name);
  assert.ok(names.includes('everything.echo') && names.includes('catalog.price'), names.join());
  const echoed = await client.callTool({ name: 'everything.echo', arguments: { message: 'hi' } });
  assert.equal(echoed.isError ?? false, false);
  assert.match(JSON.stringify(echoed.content), /hi/);
  const price = await client.callTool({ name: 'catalog.price', arguments: { sku: 'abc' } });
  assert.equal(price.isError ?? false, false);
  assert.equal(typeof price.structuredContent.cents, 'number');
  await transport.terminateSession();  // DELETE
  await client.close();
  assert.equal(stdout(), '');  // HTTP mode writes nothing to stdout
});

test('code mode over HTTP: one program calls both tools', async () => {
  const { url } = await startHttpServer(servers, configPath, 'code');
  const { client } = await connect(url);
  const tools = (await client.listTools()).tools;
  assert.deepEqual(tools.map((tool) => tool.name), ['code']);
  const result = await client.callTool({ name: 'code', arguments: { code: `
    const echo = await codemode.everything.echo({ message: 'from code' });
    const price = await codemode.catalog.price({ sku: 'abcd' });
    return { echo: JSON.stringify(echo).includes('from code'), cents: price.cents };` } });
  assert.equal(result.isError ?? false, false, JSON.stringify(result));
  assert.equal(result.structuredContent.result.echo, true);
  assert.equal(typeof result.structuredContent.result.cents, 'number');
  await client.close();
});

test('a bearer token from CODEMODE_MCP_TOKEN is required, and Origin is checked', async () => {
  // 32 to 256 characters of A-Z a-z 0-9 . _ ~ - (docs/security.md, "HTTP access").
  const token = 'tok-' + crypto.randomBytes(24).toString('hex');
  const { url } = await startHttpServer(servers, configPath, 'direct', { env: { CODEMODE_MCP_TOKEN: token } });
  const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {},
              clientInfo: { name: 'raw', version: '1' } } });
  const post = (headers) => fetch(url, { method: 'POST', body: initialize,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers } });
  assert.equal((await post({})).status, 401);
  assert.equal((await post({ Authorization: 'Bearer wrong' })).status, 401);
  assert.equal((await post({ Authorization: `Bearer ${token}`,
                             Origin: 'https://evil.example' })).status, 403);
  const accepted = await post({ Authorization: `Bearer ${token}` });
  assert.equal(accepted.status, 200);
  assert.equal((await accepted.json()).result.protocolVersion, '2025-06-18');
  const { client } = await connect(url, token);
  assert.ok((await client.listTools()).tools.length > 0);
  await client.close();
});
