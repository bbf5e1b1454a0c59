// One MCP client of http_many_clients.test.mjs, on a worker thread of its own: like an agent in a
// process of its own, it has its own fetch connection pool (undici's global dispatcher is per
// thread). It connects to workerData.url with the official SDK client, makes workerData.calls
// `code` calls in turn, and posts back how each ended: {ok} with the result, {code} for a failure
// the server answered as a tool result, or {thrown} for one the SDK raised (a refused connection,
// an HTTP error status).
import { parentPort, workerData } from 'node:worker_threads';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

// Small programs, in turn: plain arithmetic, and one tool call.
const programs = [
  { code: 'return 6 * 7', expected: 42 },
  { code: 'const price = await codemode.catalog.price({ sku: "abc" }); return price.cents;',
    expected: 300 },
];

async function run() {
  const outcomes = [];
  let client;
  try {
    client = new Client({ name: `codemode-many-clients-${workerData.index}`, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(workerData.url)));
  } catch (error) {
    return [{ thrown: `connect: ${error.message}` }];
  }
  for (let i = 0; i < workerData.calls; ++i) {
    const program = programs[(i + workerData.index) % programs.length];
    try {
      const result = await client.callTool({ name: 'code', arguments: { code: program.code } });
      const content = result.structuredContent ?? {};
      if (!result.isError && content.result === program.expected) outcomes.push({ ok: true });
      else outcomes.push({ code: content.code ?? JSON.stringify(result).slice(0, 200) });
    } catch (error) {
      outcomes.push({ thrown: error.message });
    }
  }
  await client.close();
  return outcomes;
}

parentPort.postMessage(await run());
