// A program cannot hide a tool call whose outcome is unknown (docs/mcp.md, "Code mode"), driven by
// the official MCP TypeScript SDK client over stdio: a write tool that acts and then answers past
// its timeout ends the `code` call outcome_unknown, naming the call by tool and call id, whatever
// the program returned; with `unknownOutcomes: "leave_to_program"` the program hears the timeout and
// its own answer stands, as before.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cli, writeConfig } from './environment.mjs';

const scratches = [];
after(() => {
  for (const scratch of scratches) fs.rmSync(scratch, { recursive: true, force: true });
});

// A config whose ledger.append writes one line to its own ledger file at once and then answers
// only after its 300 ms timeout; ledger.count reads the ledger. Returns the config and the ledger.
function ledgerConfig(policy) {
  const { scratch, configPath } = writeConfig('codemode-mcp-unknown-', {});
  scratches.push(scratch);
  const ledger = path.join(scratch, 'ledger');
  fs.writeFileSync(configPath, JSON.stringify({
    tools: [
      { id: 'ledger.append', version: '1', description: 'Appends an entry, then answers late.',
        effects: 'write', timeoutMs: 300,
        command: ['/bin/sh', '-c', 'echo entry >> "$0"; exec sleep 10', ledger] },
      { id: 'ledger.count', version: '1', description: 'How many entries the ledger holds.',
        effects: 'read',
        command: ['/bin/sh', '-c', 'if [ -f "$0" ]; then wc -l < "$0"; else echo 0; fi', ledger] },
    ],
    policy,
  }));
  return { configPath, ledger };
}

// The program an agent would write: count, try the write, and report success whatever happened.
const program = `
  const before = await codemode.ledger.count({});
  let append;
  try { await codemode.ledger.append({}); append = 'answered'; } catch (e) { append = e.code; }
  return { before, append };`;

async function callCode(configPath, code) {
  const client = new Client({ name: 'codemode-unknown-outcome-tests', version: '1.0.0' });
  await client.connect(new StdioClientTransport({
    command: cli, args: ['mcp', '--mode', 'code', '--config', configPath], stderr: 'pipe' }));
  try {
    const result = await client.callTool({ name: 'code', arguments: { code } });
    assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
    return result;
  } finally {
    await client.close();
  }
}

const entries = (ledger) => fs.readFileSync(ledger, 'utf8').split('\n').filter(Boolean).length;

test('by default a write that timed out ends the call outcome_unknown, naming the call', async () => {
  const { configPath, ledger } = ledgerConfig(undefined);
  const result = await callCode(configPath, program);
  assert.equal(result.isError, true);
  const { code, message, calls } = result.structuredContent;
  assert.equal(code, 'outcome_unknown');
  assert.match(message, /may or may not have taken effect/);
  // Only the write is named: the count before it answered, so its outcome is known.
  assert.equal(calls.length, 1, JSON.stringify(calls));
  assert.equal(calls[0].tool, 'ledger.append');
  assert.match(calls[0].callId, /:code:2$/);
  assert.deepEqual(Object.keys(result.structuredContent).sort(), ['calls', 'code', 'message']);
  // The write did happen: a client that took the program's answer and retried would repeat it.
  assert.equal(entries(ledger), 1);
});

test('unknownOutcomes leave_to_program lets the program hide it, as the opt-out says', async () => {
  const { configPath, ledger } = ledgerConfig({ unknownOutcomes: 'leave_to_program' });
  const result = await callCode(configPath, program);
  assert.notEqual(result.isError, true, JSON.stringify(result));
  assert.deepEqual(result.structuredContent, { result: { before: 0, append: 'tool_timeout' } });
  assert.equal(entries(ledger), 1);
});
