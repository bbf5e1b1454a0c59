// What every `codemode mcp` node test shares: the codemode binary under test (CODEMODE_CLI, set by
// ctest), the pinned downstream servers in node_modules, a scratch directory for its config file,
// the catalog.price command tool of examples/catalog, and code mode in a chosen sandbox.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const sourceDir = path.resolve(here, '../../..');
export const cli = process.env.CODEMODE_CLI;
assert.ok(cli && fs.existsSync(cli), 'CODEMODE_CLI must name the built codemode binary');
export const modules = path.join(here, 'node_modules', '@modelcontextprotocol');

// server-everything over stdio, as a config's `servers` entry.
export const everythingServer = {
  command: process.execPath,
  args: [path.join(modules, 'server-everything', 'dist', 'index.js'), 'stdio'],
};

// server-memory over stdio, keeping its graph in `memoryFile`.
export function memoryServer(memoryFile) {
  return { command: process.execPath,
           args: [path.join(modules, 'server-memory', 'dist', 'index.js')],
           env: { MEMORY_FILE_PATH: memoryFile } };
}

// The catalog's price tool as a config's command tool; `withOutputSchema` adds {cents: integer}.
export function catalogPriceTool({ withOutputSchema = true } = {}) {
  return {
    id: 'catalog.price', version: '1', description: 'Price of one product in cents.',
    inputSchema: { type: 'object', properties: { sku: { type: 'string' } },
                   required: ['sku'], additionalProperties: false },
    ...(withOutputSchema ? { outputSchema: { type: 'object',
                                             properties: { cents: { type: 'integer' } },
                                             required: ['cents'] } } : {}),
    effects: 'read', command: [path.join(sourceDir, 'examples/catalog/price.sh')],
  };
}

// A fresh scratch directory and `config` written there as codemode.json: {scratch, configPath}.
export function writeConfig(prefix, config) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const configPath = path.join(scratch, 'codemode.json');
  fs.writeFileSync(configPath, JSON.stringify(config));
  return { scratch, configPath };
}

// Starts `codemode mcp --mode code` with the catalog.price tool and `sandbox` (undefined: none in
// the config), runs `code` through the SDK client, and returns {result, startLine} (the server's
// start line on stderr). `worker`: the --worker binary, if any.
export async function runCodeIn(sandbox, code, { worker } = {}) {
  const { scratch, configPath } = writeConfig('codemode-mcp-sandbox-test-',
                                              { tools: [catalogPriceTool()], sandbox });
  const transport = new StdioClientTransport({
    command: cli,
    args: ['mcp', '--mode', 'code', '--config', configPath, ...(worker ? ['--worker', worker] : [])],
    stderr: 'pipe' });
  let stderr = '';
  transport.stderr.on('data', (chunk) => { stderr += chunk; });
  const client = new Client({ name: 'codemode-tests', version: '1.0.0' });
  try {
    await client.connect(transport);
    const result = await client.callTool({ name: 'code', arguments: { code } });
    const startLine = JSON.parse(stderr.split('\n').find((line) =>
      line.includes('"mcp_server_started"')));
    return { result, startLine };
  } finally {
    await client.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

// Starts `codemode mcp --mode code` with `sandbox` (undefined: none in the config) and an empty
// stdin, so that a server that starts stops at once: {status, error, startLine}, the first line
// on stderr being the error or the start line. `wrapper`: a command line that runs the server
// (given as its trailing arguments).
export function refusedStart(sandbox, { wrapper = [] } = {}) {
  const { scratch, configPath } = writeConfig('codemode-mcp-sandbox-test-', { sandbox });
  try {
    const command = [...wrapper, cli, 'mcp', '--mode', 'code', '--config', configPath];
    const run = spawnSync(command[0], command.slice(1),
                          { input: '', encoding: 'utf8', timeout: 30000 });
    const first = JSON.parse(run.stderr.trim().split('\n')[0] || '{}');
    return { status: run.status, error: first.error,
             startLine: first.event === 'mcp_server_started' ? first : undefined };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

// Starts `codemode mcp --transport http --listen 127.0.0.1:0` with the config at `configPath` in
// `mode`, adds it to `children` (for stopServers), and resolves once it logs the port it bound
// with the child, its endpoint URL and a function returning what it wrote on stdout so far.
export function startHttpServer(children, configPath, mode, { env = {} } = {}) {
  const child = spawn(cli, ['mcp', '--config', configPath, '--mode', mode, '--transport', 'http',
                            '--listen', '127.0.0.1:0'],
                      { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  child.stdout.on('data', (chunk) => { stdout += chunk; });
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stderr }).on('line', (line) => {
      const event = JSON.parse(line);
      if (event.event === 'mcp_http_listening') {
        resolve({ child, url: new URL(`http://127.0.0.1:${event.port}/mcp`), stdout: () => stdout });
      }
    });
    child.on('exit', (code) => reject(new Error(`codemode mcp exited with ${code}`)));
  });
}

// Stops every server startHttpServer started into `children` and waits until each has exited.
export async function stopServers(children) {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((child) => new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.on('exit', resolve);
  })));
}
