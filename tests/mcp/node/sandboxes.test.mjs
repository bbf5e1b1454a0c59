// `codemode mcp --mode code` with the config's `sandbox` chosen (docs/mcp.md, "sandbox"), driven
// by the official MCP TypeScript SDK client: the isolated profile, and a protocol sandbox that
// launches the worker through bubblewrap. A protocol sandbox the config does not declare
// production stops the server at start (exit 2), as does one that cannot run here: nothing falls
// back to less.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { cli, refusedStart, runCodeIn as runIn } from './environment.mjs';

const worker = path.join(path.dirname(cli), 'codemode-worker');
// As tests/support/bubblewrap.h: the worker's own directory is bound back in over the private /tmp.
const bwrap = ['/usr/bin/bwrap', '--unshare-all', '--die-with-parent', '--new-session',
               '--ro-bind', '/', '/', '--tmpfs', '/tmp',
               '--ro-bind', path.dirname(worker), path.dirname(worker),
               '--proc', '/proc', '--dev', '/dev', '--cap-drop', 'ALL', '--', worker];

const program = `const price = await codemode.catalog.price({ sku: 'abc' });
                 return { cents: price.cents };`;

test('the isolated profile runs the model\'s programs', async () => {
  const { result, startLine } = await runIn({ type: 'process', isolation: 'isolated' }, program);
  assert.equal(startLine.sandbox, 'codemode.isolated');
  assert.equal(result.isError, false, JSON.stringify(result));
  assert.deepEqual(result.structuredContent, { result: { cents: 300 } });
});

test('a production protocol sandbox runs the worker through bubblewrap', async () => {
  assert.ok(fs.existsSync('/usr/bin/bwrap'), 'bubblewrap is missing: scripts/install-deps installs it');
  const { result, startLine } = await runIn(
    { type: 'protocol', id: 'tests.bwrap', qualification: 'production', launch: bwrap }, program);
  assert.equal(startLine.sandbox, 'tests.bwrap');
  assert.equal(result.isError, false, JSON.stringify(result));
  assert.deepEqual(result.structuredContent, { result: { cents: 300 } });
});

test('a protocol sandbox qualified for tests stops the server at start', () => {
  const { status, error } = refusedStart({ type: 'protocol', id: 'tests.bwrap', launch: bwrap });
  assert.equal(status, 2);
  assert.equal(error.code, 'UNSUPPORTED_PROFILE');
  assert.equal(error.rule, 'test_adapter');
});
