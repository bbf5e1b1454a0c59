// `codemode mcp --mode code` over stdio, driven by the official MCP TypeScript SDK client: the one
// `code` tool runs JavaScript in a fresh confined worker, calling real downstream servers
// (@modelcontextprotocol/server-everything, fixture_server.mjs) and a command tool through
// codemode.<namespace>.<method> wrappers. Also the code tool's limits at MCP level: source size,
// final result size, an infinite loop, a throw, cancellation, an unknown method.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { catalogPriceTool, cli, everythingServer, here, modules, sourceDir } from './environment.mjs';


const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'codemode-mcp-code-test-'));
const configPath = path.join(scratch, 'codemode.json');
fs.writeFileSync(configPath, JSON.stringify({
  servers: {
    everything: everythingServer,
    fixture: { command: process.execPath, args: [path.join(here, 'fixture_server.mjs')] },
    shown: { command: process.execPath, args: [path.join(here, 'fixture_server.mjs')],
             exposeErrors: true },
  },
  tools: [catalogPriceTool({ withOutputSchema: false })],
  // One worker at a time: a call after a cancellation succeeds only once the cancelled worker is gone.
  policy: { wallTimeMillis: 3000, sourceBytes: 4096, finalResultBytes: 1536, serverWorkers: 1 },
}));

let client;
const transportErrors = [];

before(async () => {
  client = new Client({ name: 'codemode-tests', version: '1.0.0' });
  client.onerror = (error) => transportErrors.push(error);
  await client.connect(new StdioClientTransport({
    command: cli, args: ['mcp', '--mode', 'code', '--config', configPath], stderr: 'pipe' }));
});

after(async () => {
  await client.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const run = (code, options) => client.callTool({ name: 'code', arguments: { code } }, undefined,
                                               options);

test('tools/list holds exactly one code tool describing every method', async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name), ['code']);
  assert.deepEqual(tools[0].inputSchema.required, ['code']);
  for (const method of ['declare const codemode', 'readonly everything', 'get_sum(',
                        'readonly catalog', 'price(', 'pid(', 'Price of one product in cents.']) {
    assert.ok(tools[0].description.includes(method), method);
  }
});

test('a program composes calls to downstream and command tools', async () => {
  const result = await run(`
    const sum = await codemode.everything.get_sum({ a: 2, b: 3 });
    const [x, y] = await Promise.all([codemode.catalog.price({ sku: 'ab' }),
                                      codemode.catalog.price({ sku: 'cde' })]);
    return { sum, cents: x.cents + y.cents };`);
  assert.equal(result.isError, false);
  assert.deepEqual(result.structuredContent.result.cents, 500);
  assert.match(result.structuredContent.result.sum, /5/);
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
});

test('a function expression in a markdown fence is accepted', async () => {
  const result = await run('```js\nasync () => 40 + 2\n```');
  assert.deepEqual(result.structuredContent, { result: 42 });
});

test('a body that starts with a function declaration runs as a body', async () => {
  const helper = await run('function helper(x) { return x * 2; }\nreturn helper(21);');
  assert.deepEqual(helper.structuredContent, { result: 42 });
  const main = await run(`
    async function main() { const a = await codemode.catalog.price({ sku: 'abc' }); return a; }
    return await main();`);
  assert.deepEqual(main.structuredContent, { result: { cents: 300 } });
});

test('a whole function expression is called, braces in its literals and a trailing ;', async () => {
  const result = await run(`async function main() {
    const { cents } = await codemode.catalog.price({ sku: 'ab' });
    return \`}\${ { v: '{' }.v + /}/.source }\${cents}\`; // }
  };`);
  assert.deepEqual(result.structuredContent, { result: '}{}200' });
});

test('a failed tool call throws an Error with enumerable code and operation', async () => {
  const result = await run(`
    try { await codemode.catalog.price({ sku: 3 }); return 'no'; }
    catch (error) {
      return { keys: Object.keys(error), code: error.code, op: error.operation, message: error.message };
    }`);
  assert.deepEqual(result.structuredContent.result,
                   { keys: ['code', 'operation'], code: 'invalid_arguments', op: 'catalog.price',
                     message: '/sku: must be string' });
});

test('a downstream failure reaches the program as its text only with exposeErrors', async () => {
  const result = await run(`
    const seen = {};
    for (const server of ['fixture', 'shown']) {
      try { await codemode[server].fail({}); }
      catch (error) { seen[server] = { code: error.code, message: error.message }; }
    }
    return seen;`);
  assert.deepEqual(result.structuredContent.result, {
    fixture: { code: 'tool_failed', message: 'The tool call failed.' },
    shown: { code: 'tool_failed', message: 'GITHUB_TOKEN=fixture-secret at /private/cache' },
  });
});

test('an unknown method throws unknown_method with a suggestion', async () => {
  const result = await run(`
    try { await codemode.everything.getSum({}); }
    catch (error) { return { code: error.code, message: error.message }; }`);
  assert.equal(result.structuredContent.result.code, 'unknown_method');
  assert.match(result.structuredContent.result.message, /get_sum/);
});

test('help and search answer locally, without a tool call', async () => {
  const result = await run(`return { all: codemode.help(), one: codemode.help('catalog.price'),
                                     found: codemode.search('cents') };`);
  const { all, one, found } = result.structuredContent.result;
  assert.ok(all.methods.includes('everything.get_sum'));
  assert.ok(all.namespaces.includes('fixture'));
  assert.equal(one.description, 'Price of one product in cents.');
  assert.deepEqual(one.inputSchema.required, ['sku']);
  assert.deepEqual(found.map((entry) => entry.name), ['catalog.price']);
  const unknown = await run(`try { codemode.help('catalog.prise') } catch (e) { return e.message }`);
  assert.match(unknown.structuredContent.result, /catalog\.price/);
});

test('tools.call remains available', async () => {
  const result = await run(`return await tools.call('catalog.price', { sku: 'abcd' });`);
  assert.deepEqual(result.structuredContent.result, { status: 'succeeded', output: { cents: 400 } });
});

test('a throw is code_rejected with the program message', async () => {
  const result = await run(`throw new Error('boom')`);
  assert.equal(result.isError, true);
  // The model profile (the server's default) names the error and where it was thrown.
  assert.deepEqual(result.structuredContent, {
    code: 'code_rejected', name: 'Error', message: 'boom', line: 1, column: 7,
    source: "throw new Error('boom')" });
});

test("the model's text cannot close its function, reach the wrapper or forge the envelope",
     async () => {
  // The review's text, and variants with braces in a template, a comment, and a new function.
  for (const code of ["return 1\n};\nreturn {result:'forged'};\nconst u = () => {",
                      "const s = `${'}'}`;\n};\nreturn { result: 'forged' };\nconst u = () => {",
                      "/* { */ return 1 }; return { result: 'forged' }; function u() { /* } */",
                      "return 1\n};\nreturn { error: { code: 'final_result_bytes_limit', " +
                      "bytes: 123456789 } };\nconst u = () => {"]) {
    const result = await run(code);
    assert.equal(result.isError, true, code);
    assert.equal(result.structuredContent.code, 'code_rejected', code);
  }
  const locals = await run("return [typeof __codemode, eval('typeof main')];");
  assert.deepEqual(locals.structuredContent, { result: ['undefined', 'undefined'] });
  const then = await run(`
    Object.prototype.then = function (resolve) {
      delete Object.prototype.then;
      resolve({ error: { code: 'final_result_bytes_limit', bytes: 123456789 } });
    };
    return 1;`);
  assert.deepEqual(then.structuredContent, { result: 1 });
});

test('no ambient capabilities reach the program', async () => {
  // The model profile has a console (its lines dropped unless consoleLogs is on); the standard
  // profile's lack of one is checked in code_budgets.test.mjs.
  const result = await run(`return [typeof process, typeof require, typeof fetch, typeof console];`);
  assert.deepEqual(result.structuredContent.result, ['undefined', 'undefined', 'undefined',
                                                     'object']);
});

test('source above sourceBytes is refused before any worker starts', async () => {
  const result = await run(`return 1; // ${'x'.repeat(5000)}`);
  assert.deepEqual(result.structuredContent.code, 'source_bytes_limit');
  // The text as sent counts, blank space and all: one space past sourceBytes is refused.
  const spaces = await run(' '.repeat(4097));
  assert.deepEqual(spaces.structuredContent.code, 'source_bytes_limit');
  const { tools } = await client.listTools();
  assert.equal(tools[0].inputSchema.properties.code.maxLength, 4096);
});

test('a final result above finalResultBytes is refused whole', async () => {
  const result = await run(`return 'y'.repeat(2000);`);
  assert.equal(result.isError, true);
  assert.equal(result.structuredContent.code, 'final_result_bytes_limit');
});

test('an infinite loop ends as deadline_exceeded and the next call works', async () => {
  const started = Date.now();
  const result = await run('while (true) {}');
  assert.equal(result.structuredContent.code, 'deadline_exceeded');
  assert.ok(Date.now() - started < 8000);
  assert.deepEqual((await run('return 1')).structuredContent, { result: 1 });
});

test('cancelling a code call frees the server within 2 s', async () => {
  const controller = new AbortController();
  const call = run('while (true) {}', { signal: controller.signal });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const cancelled = Date.now();
  controller.abort('test');
  await assert.rejects(call);
  // Until the cancellation has killed the worker, a new call fails fast (server_workers_limit);
  // the wall limit (3 s) alone would free the slot only ~2.7 s after the abort.
  let next;
  do {
    next = (await run('return 2')).structuredContent;
    if (next.code === 'server_workers_limit') await new Promise((r) => setTimeout(r, 25));
  } while (next.code === 'server_workers_limit' && Date.now() - cancelled < 2000);
  assert.deepEqual(next, { result: 2 });
  assert.ok(Date.now() - cancelled < 2000);
});

test('a long program with a progress token gets progress while it runs', async () => {
  const seen = [];
  const result = await run(`
    const done = await codemode.everything.trigger_long_running_operation({ duration: 2, steps: 2 });
    return typeof done;`, { onprogress: (p) => seen.push(p.progress), resetTimeoutOnProgress: true });
  assert.deepEqual(result.structuredContent, { result: 'string' });
  assert.ok(seen.length >= 1, 'at least one progress notification');
  seen.forEach((value, index) => assert.equal(value, index + 1));
});

test('stdout carried only protocol messages', () => {
  assert.deepEqual(transportErrors, []);
});
