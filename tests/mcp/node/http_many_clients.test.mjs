// Many MCP clients on one address at once, as several agents on one host (or behind one gateway)
// are: 16 official SDK clients (StreamableHTTPClientTransport, each on a worker thread with its
// own connection pool, as separate agent processes have) connect over loopback to one
// `codemode mcp --transport http --mode code` and make 100 `code` calls each. Every call succeeds
// or gets a budget code as its tool result (the server's invocation and worker caps fail fast);
// none is refused at the connection (HTTP 503) however many connections one address holds while
// its requests are being answered. Run by ctest with CODEMODE_CLI set.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { catalogPriceTool, here, startHttpServer, stopServers, writeConfig } from './environment.mjs';

const kClients = 16;
const kCallsPerClient = 100;

const { scratch, configPath } = writeConfig('codemode-mcp-many-clients-', {
  tools: [catalogPriceTool()],
});

const servers = [];

after(async () => {
  await stopServers(servers);
  fs.rmSync(scratch, { recursive: true, force: true });
});

// Starts the server in code mode on a free loopback port with the config at `config`; resolves
// with its endpoint URL.
async function startServer(config = configPath) {
  return (await startHttpServer(servers, config, 'code')).url;
}

function runClient(url, index) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(path.join(here, 'http_client_worker.mjs'),
                              { workerData: { url: url.href, index, calls: kCallsPerClient } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

test(`${kClients} SDK clients from one address: no call is refused at the connection`, async () => {
  const url = await startServer();
  const started = Date.now();
  const outcomes = (await Promise.all(
    Array.from({ length: kClients }, (_, index) => runClient(url, index)))).flat();
  const refused = outcomes.filter((outcome) => outcome.thrown);
  const codes = new Set(outcomes.filter((outcome) => outcome.code).map((outcome) => outcome.code));
  const succeeded = outcomes.filter((outcome) => outcome.ok).length;
  console.log(`${outcomes.length} calls in ${Date.now() - started} ms: ${succeeded} succeeded, ` +
              `codes ${[...codes].join(', ') || 'none'}, ${refused.length} refused`);
  assert.deepEqual(refused.slice(0, 3), [], `${refused.length} calls were refused`);
  assert.equal(outcomes.length, kClients * kCallsPerClient);
  for (const code of codes) assert.match(code, /^server_(invocations|workers)_limit$/);
  assert.ok(succeeded > 0);
});

// Everything the server sends on a new connection that sends `text`, until it closes the
// connection (or 500 ms pass with the connection open: the server is waiting for the rest).
function rawExchange(url, text) {
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.setTimeout(500, () => socket.destroy());
    socket.on('data', (chunk) => { received += chunk; });
    socket.on('close', () => resolve(received));
    socket.on('error', () => {});
  });
}

test('the config\'s http member sets the cap on incomplete connections per address', async () => {
  const capped = path.join(scratch, 'capped.json');
  fs.writeFileSync(capped, JSON.stringify({ tools: [catalogPriceTool()],
                                            http: { incompleteConnectionsPerAddress: 1 } }));
  const url = await startServer(capped);
  // A connection whose head never ends, then another from the same address: with the default
  // cap (32) the server would wait for the second one's head too.
  const partialHead = 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n';
  const slow = net.connect(Number(url.port), '127.0.0.1', () => slow.write(partialHead));
  await new Promise((resolve) => slow.on('connect', resolve));
  const refused = await rawExchange(url, partialHead);
  assert.match(refused, /^HTTP\/1\.1 503 /);
  assert.ok(refused.endsWith('\r\n\r\ntoo many incomplete requests from this address'), refused);
  slow.destroy();
});
