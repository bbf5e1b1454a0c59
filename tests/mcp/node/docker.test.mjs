// `codemode mcp --mode code` running the model's programs in Docker (docs/docker.md), driven by
// the official MCP TypeScript SDK client, against the private daemon and worker image that the
// ctest fixture "docker" started and built (CODEMODE_TEST_DOCKER_DIR). An image that is not the
// pinned one stops the server at start: nothing falls back to another sandbox.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { refusedStart, runCodeIn } from './environment.mjs';

const dockerDir = process.env.CODEMODE_TEST_DOCKER_DIR;
assert.ok(dockerDir, 'CODEMODE_TEST_DOCKER_DIR is not set: run this through ctest');
const host = fs.readFileSync(path.join(dockerDir, 'server'), 'utf8').trim();
const { image, provenance } = JSON.parse(fs.readFileSync(path.join(dockerDir, 'image.json'), 'utf8'));
// Debian 12's engine (20.10) does not know seccomp=builtin: the daemon's default profile, which
// the adapter checks `docker info` reports.
const docker = { type: 'docker', dockerPath: '/usr/bin/docker', host, image, provenance,
                 seccomp: 'daemon_default' };

function containers() {
  const run = spawnSync('/usr/bin/docker', ['--host', host, 'ps', '--all', '--quiet',
                                            '--filter', 'name=codemode-'],
                        { encoding: 'utf8', env: {} });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim();
}

test('the model\'s program runs in a container and calls a host tool', async () => {
  const { result, startLine } = await runCodeIn(docker, `
    const price = await codemode.catalog.price({ sku: 'abcd' });
    return { cents: price.cents, process: typeof process };`);
  assert.equal(startLine.sandbox, 'codemode.docker');
  assert.equal(result.isError, false, JSON.stringify(result));
  assert.deepEqual(result.structuredContent, { result: { cents: 400, process: 'undefined' } });
  assert.equal(containers(), '', 'a container outlived its execution');
});

test('an image that is not the pinned one stops the server at start', () => {
  const { status, error } = refusedStart({ ...docker, provenance: `sha256:${'0'.repeat(64)}` });
  assert.equal(status, 2);
  assert.equal(error.code, 'UNSUPPORTED_PROFILE');
  assert.equal(error.rule, 'sandbox_unavailable');
});
