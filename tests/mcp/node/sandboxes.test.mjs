// `codemode mcp --mode code` with the config's `sandbox` chosen (docs/mcp.md, "sandbox"), driven
// by the official MCP TypeScript SDK client: the isolated profile (the default), the process
// profile only when the config says so, and a protocol sandbox that launches the worker through
// bubblewrap. A protocol sandbox the config does not declare production stops the server at start
// (exit 2), as does one that cannot run here: nothing falls back to less.
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

// What the test-hooks worker saw of its isolation: 1 pid 1, 2 an empty root, 4 no /etc/passwd,
// 8 only a loopback that is down (src/worker/test_hooks.h).
const testhooksWorker = process.env.CODEMODE_WORKER_TESTHOOKS;
const seenIsolation = 'return __codemodeTestHook("isolation");';

test('a config without a sandbox runs the model\'s programs in the isolated profile', async () => {
  assert.ok(testhooksWorker && fs.existsSync(testhooksWorker), 'CODEMODE_WORKER_TESTHOOKS is unset');
  for (const sandbox of [undefined, { type: 'process' }]) {
    const { result, startLine } = await runIn(sandbox, seenIsolation, { worker: testhooksWorker });
    assert.equal(startLine.sandbox, 'codemode.isolated', JSON.stringify(sandbox));
    assert.deepEqual(result.structuredContent, { result: 15 }, JSON.stringify(result));
  }
});

test('only "isolation": "process" runs programs without namespaces', async () => {
  const { result, startLine } = await runIn({ type: 'process', isolation: 'process' },
                                            seenIsolation, { worker: testhooksWorker });
  assert.equal(startLine.sandbox, 'codemode.process');
  assert.equal(result.structuredContent.result & 1, 0, 'not pid 1 of a namespace of its own');
});

// The server alone in a user namespace whose user.max_user_namespaces is 0 (the limit belongs to
// each user namespace, so nothing outside it changes): it can make no namespace of its own.
const noUserNamespaces = ['/usr/bin/unshare', '--user', '--map-root-user', '/bin/sh', '-c',
                          'echo 0 > /proc/sys/user/max_user_namespaces && exec "$0" "$@"'];

test('where user namespaces are refused, the default stops the server at start, saying why', () => {
  assert.ok(fs.existsSync('/usr/bin/unshare'), 'util-linux\'s unshare is missing');
  for (const sandbox of [undefined, { type: 'process' }]) {
    const { status, error } = refusedStart(sandbox, { wrapper: noUserNamespaces });
    assert.equal(status, 2, JSON.stringify(sandbox));
    assert.equal(error.code, 'UNSUPPORTED_PROFILE');
    assert.equal(error.rule, 'sandbox_unavailable');
    assert.match(error.message, /user\.max_user_namespaces is 0/);
    assert.match(error.message, /"isolation": "process"/);
  }
  // Said explicitly, the process profile starts there.
  const { status, error, startLine } =
    refusedStart({ type: 'process', isolation: 'process' }, { wrapper: noUserNamespaces });
  assert.equal(error, undefined);
  assert.equal(status, 0);
  assert.equal(startLine.sandbox, 'codemode.process');
});
