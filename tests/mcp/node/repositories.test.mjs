// The repository tools of `codemode mcp` (its config's `repositories` member), driven by the
// official MCP TypeScript SDK client over stdio against fixture repositories this file makes in a
// scratch directory of its own (tests/repository/make_fixture_repositories.sh) and removes at the
// end: the seven repo.* tools in direct mode, and in code mode an agent's whole flow in one program
// (findRepositories, open, two searchCode pages, read), a snapshot reused by a later program, the
// pages and snapshots budgets per invocation, edited and replayed cursors, help answered locally,
// and a root that does not exist refused at start. No answer may show the fixture's host path or
// the secret outside the root.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cli, sourceDir, writeConfig } from './environment.mjs';

const makeFixture = path.join(sourceDir, 'tests/repository/make_fixture_repositories.sh');
const fixture = fs.mkdtempSync(path.join(os.tmpdir(), 'codemode-mcp-repositories-'));
const codeRoot = path.join(fixture, 'code');
const secret = 'hunter2';
const snapshotPattern = /^code\/alpha@[0-9a-f]{40}$/;

const configs = [];
const clients = {};
const stderrs = {};
// Every response's JSON (tools/list and tools/call alike), and the servers' stderr, for the last
// test: none may hold the fixture's host path or the secret.
const seen = [];

function config(prefix, repositories) {
  const written = writeConfig(prefix,
                              { repositories: { roots: { code: codeRoot }, ...repositories } });
  configs.push(written);
  return written.configPath;
}

async function connect(name, mode, configPath) {
  const client = new Client({ name: 'codemode-repository-tests', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: cli, args: ['mcp', '--mode', mode, '--config', configPath], stderr: 'pipe' });
  stderrs[name] = '';
  transport.stderr.on('data', (chunk) => { stderrs[name] += chunk; });
  await client.connect(transport);
  clients[name] = client;
}

before(async () => {
  const made = spawnSync('bash', [makeFixture, fixture], { encoding: 'utf8', timeout: 60000 });
  assert.equal(made.status, 0, made.stderr);
  // Direct mode with the default budgets; code mode with one snapshot per program and the default
  // eight pages; code mode with two pages.
  await Promise.all([
    connect('direct', 'direct', config('codemode-mcp-repo-direct-', {})),
    connect('code', 'code', config('codemode-mcp-repo-code-', { snapshots: 1 })),
    connect('pages', 'code', config('codemode-mcp-repo-pages-', { pages: 2 })),
  ]);
});

after(async () => {
  for (const client of Object.values(clients)) await client.close();
  for (const { scratch } of configs) fs.rmSync(scratch, { recursive: true, force: true });
  fs.rmSync(fixture, { recursive: true, force: true });
});

// One direct-mode tool call: its structuredContent (checked against its text) and isError.
async function call(name, args) {
  const result = await clients.direct.callTool({ name, arguments: args });
  seen.push(JSON.stringify(result));
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
  return { isError: result.isError, shown: result.structuredContent };
}

// One `code` call on `client`: its structuredContent (checked against its text), and isError.
async function run(client, code) {
  const result = await clients[client].callTool({ name: 'code', arguments: { code } });
  seen.push(JSON.stringify(result));
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
  return { isError: result.isError, shown: result.structuredContent };
}

// Its result, for a program that must succeed.
async function resultOf(client, code) {
  const { isError, shown } = await run(client, code);
  assert.equal(isError, false, JSON.stringify(shown));
  return shown.result;
}

const methods = ['findRepositories', 'refs', 'open', 'list', 'searchCode', 'read', 'context'];

test('direct mode lists the seven repo tools, read-only', async () => {
  const listed = await clients.direct.listTools();
  seen.push(JSON.stringify(listed));
  const byName = Object.fromEntries(listed.tools.map((tool) => [tool.name, tool]));
  for (const method of methods) {
    const tool = byName[`repo.${method}`];
    assert.ok(tool, `repo.${method}`);
    assert.equal(tool.annotations?.readOnlyHint, true, `repo.${method}`);
  }
  assert.equal(listed.tools.filter((tool) => tool.name.startsWith('repo.')).length, 7);
  assert.deepEqual(byName['repo.read'].inputSchema.required, ['snapshot_id', 'path']);
  assert.deepEqual(byName['repo.searchCode'].inputSchema.required, ['snapshot_id', 'queries']);
});

test('direct mode: find, open, read (structured by default), search', async () => {
  const found = await call('repo.findRepositories', {});
  assert.equal(found.isError, false);
  const names = found.shown.items.map((item) => item.repo);
  for (const name of ['code/alpha', 'code/empty', 'code/group/bare.git', 'code/shared',
                      'code/withsub']) {
    assert.ok(names.includes(name), name);
  }
  // Not a repository, a symlink out of the root, deeper than the walk, outside the root.
  assert.ok(!names.some((name) => /notarepo|escape|deeprepo|secret/.test(name)), names.join());
  assert.equal(found.shown.items.find((item) => item.repo === 'code/group/bare.git').bare, true);

  const opened = await call('repo.open', { repo: 'code/alpha' });
  assert.equal(opened.isError, false);
  assert.match(opened.shown.snapshot_id, snapshotPattern);
  assert.equal(opened.shown.snapshot_id, `code/alpha@${opened.shown.commit_sha}`);
  assert.equal(opened.shown.ref, 'refs/heads/main');
  const snapshot = opened.shown.snapshot_id;

  const read = await call('repo.read', { snapshot_id: snapshot, path: 'README.md' });
  assert.equal(read.isError, false);
  assert.equal(read.shown.text, undefined);
  assert.equal(read.shown.items.length, 1);
  assert.equal(read.shown.items[0].text, 'alpha\nbeta\ngamma2');
  assert.equal(read.shown.items[0].path, 'README.md');
  assert.match(read.shown.items[0].blob_sha, /^[0-9a-f]{40}$/);
  assert.equal(read.shown.commit_sha, opened.shown.commit_sha);

  const tagged = await call('repo.open', { repo: 'code/alpha', ref: 'v1.0' });
  assert.notEqual(tagged.shown.commit_sha, opened.shown.commit_sha);
  const old = await call('repo.read', { snapshot_id: tagged.shown.snapshot_id, path: 'README.md',
                                        format: 'text' });
  assert.equal(old.shown.text, 'alpha\nbeta\ngamma');

  const searched = await call('repo.searchCode', { snapshot_id: snapshot, queries: ['needle'] });
  assert.equal(searched.isError, false);
  assert.deepEqual(searched.shown.items.map(({ path: file, line_number, text }) =>
    ({ file, line_number, text })),
  [{ file: 'src/nested/deep/file.txt', line_number: 1, text: 'needle in a haystack' }]);
  assert.equal(searched.shown.snapshot_id, snapshot);
});

test('direct mode: refusals are isError with their own code', async () => {
  const opened = await call('repo.open', { repo: 'code/alpha' });
  const snapshot = opened.shown.snapshot_id;
  const refused = await call('repo.read', { snapshot_id: snapshot,
                                            path: '../other/secretrepo/secret.txt' });
  assert.equal(refused.isError, true);
  assert.equal(refused.shown.code, 'path_refused');
  assert.equal(typeof refused.shown.message, 'string');
  const outside = await call('repo.open', { repo: '../other/secretrepo' });
  assert.equal(outside.isError, true);
  assert.equal(outside.shown.code, 'unknown_repository');
  const escape = await call('repo.open', { repo: 'code/escape' });
  assert.equal(escape.isError, true);
  assert.equal(escape.shown.code, 'repository_refused');
  const unknown = await call('repo.read', { snapshot_id: `code/alpha@${'0'.repeat(40)}`,
                                            path: 'README.md' });
  assert.equal(unknown.shown.code, 'unknown_snapshot');
  const directory = await call('repo.read', { snapshot_id: snapshot, path: 'src' });
  assert.equal(directory.shown.code, 'not_a_file');
  const secretSearch = await call('repo.findRepositories', { pattern: 'secret' });
  assert.equal(secretSearch.isError, false);
  assert.deepEqual(secretSearch.shown.items, []);
});

// An agent's whole flow (find, open, search, read), in one program; its snapshot_id is reused by
// the next test.
let flowSnapshot;

test('code mode: findRepositories, open, two searchCode pages, read, in one program', async () => {
  const shown = await resultOf('code', `
    const found = await codemode.repo.findRepositories({});
    const repo = found.items.map((item) => item.repo).find((name) => name === 'code/alpha');
    const snap = await codemode.repo.open({ repo });
    const search = { snapshot_id: snap.snapshot_id, queries: ['beta', 'gamma'], max_results: 1,
                     max_bytes: 4096, globs: ['*.md'] };
    const first = await codemode.repo.searchCode(search);
    const second = await codemode.repo.searchCode({ ...search, cursor: first.next_cursor });
    const hit = second.items[0];
    const read = await codemode.repo.read({ snapshot_id: snap.snapshot_id, path: hit.path,
                                            start_line: hit.line_number,
                                            end_line: hit.line_number });
    return { names: found.items.map((item) => item.repo), snap, first, second, read };`);
  const { names, snap, first, second, read } = shown;
  assert.ok(names.includes('code/alpha'));
  assert.match(snap.snapshot_id, snapshotPattern);
  flowSnapshot = snap.snapshot_id;
  for (const page of [first, second, read]) {
    assert.equal(page.repo, 'code/alpha');
    assert.equal(page.commit_sha, snap.commit_sha);
    assert.equal(page.snapshot_id, snap.snapshot_id);
    assert.ok(page.budget.serialized_bytes <= page.budget.requested_bytes);
  }
  assert.equal(first.budget.requested_bytes, 4096);
  assert.equal(first.items.length, 1);
  assert.equal(first.has_more, true);
  assert.equal(typeof first.next_cursor, 'string');
  assert.equal(second.items.length, 1);
  assert.deepEqual([first.items[0].path, first.items[0].line_number, first.items[0].text],
                   ['README.md', 2, 'beta']);
  assert.deepEqual([second.items[0].path, second.items[0].line_number, second.items[0].text],
                   ['README.md', 3, 'gamma2']);
  assert.notEqual(first.items[0].line_number, second.items[0].line_number);
  assert.equal(second.has_more, false);
  assert.equal(second.next_cursor, null);
  for (const item of [...first.items, ...second.items]) {
    assert.match(item.blob_sha, /^[0-9a-f]{40}$/);
  }
  // Read's default in code mode is the compact text.
  assert.equal(read.format, 'text');
  assert.equal(read.items, undefined);
  assert.equal(read.text, 'gamma2');
  assert.deepEqual([read.path, read.start_line, read.end_line, read.total_lines],
                   ['README.md', 3, 3, 3]);
  assert.equal(read.blob_sha, second.items[0].blob_sha);
});

test('a later program reuses the snapshot without a snapshot unit', async () => {
  assert.ok(flowSnapshot, 'the flow test opened a snapshot');
  const shown = await resultOf('code', `
    const line2 = await codemode.repo.read({ snapshot_id: ${JSON.stringify(flowSnapshot)},
                                             path: 'README.md', start_line: 2, end_line: 2 });
    // The one snapshot unit of this program is still there...
    const tagged = await codemode.repo.open({ repo: 'code/alpha', ref: 'v1.0' });
    const old = await codemode.repo.read({ snapshot_id: tagged.snapshot_id, path: 'README.md',
                                           start_line: 3 });
    // ...and now spent, even by a call that would fail anyway.
    let second;
    try { await codemode.repo.open({ repo: 'code/alpha' }); second = 'opened'; }
    catch (e) { second = { code: e.code, message: e.message }; }
    return { line2: line2.text, old: old.text, tagged: tagged.snapshot_id, second };`);
  assert.equal(shown.line2, 'beta');
  assert.equal(shown.old, 'gamma');
  assert.match(shown.tagged, snapshotPattern);
  assert.notEqual(shown.tagged, flowSnapshot);
  assert.deepEqual(shown.second, { code: 'snapshots_limit', message: 'snapshot budget exhausted' });
});

test('a snapshot is known only to the server process that opened it', async () => {
  const shown = await resultOf('pages', `
    try {
      await codemode.repo.read({ snapshot_id: ${JSON.stringify(flowSnapshot)}, path: 'README.md' });
    }
    catch (e) { return e.code; }`);
  assert.equal(shown, 'unknown_snapshot');
});

// Each call's outcome inside the program: 'ok' or the thrown Error's code.
const collect = `
  const codes = [];
  const attempt = async (call) => {
    try { await call(); codes.push('ok'); } catch (e) { codes.push(e.code); }
  };`;

test('the third page of a program with two pages is pages_limit', async () => {
  const shown = await resultOf('pages', `
    await codemode.repo.findRepositories({});
    await codemode.repo.findRepositories({ pattern: 'alpha' });
    try { await codemode.repo.findRepositories({}); return 'third page delivered'; }
    catch (e) { return { code: e.code, message: e.message, operation: e.operation }; }`);
  assert.deepEqual(shown, { code: 'pages_limit', message: 'page budget exhausted',
                            operation: 'repo.findRepositories' });
  // Failed calls spend units too; open is not a page.
  const failed = await resultOf('pages', `${collect}
    await attempt(() => codemode.repo.read({ snapshot_id: 'code/alpha@nothing',
                                             path: 'README.md' }));
    await attempt(() => codemode.repo.open({ repo: 'code/alpha' }));
    await attempt(() => codemode.repo.refs({ repo: 'code/alpha' }));
    await attempt(() => codemode.repo.refs({ repo: 'code/alpha' }));
    return codes;`);
  assert.deepEqual(failed, ['unknown_snapshot', 'ok', 'ok', 'pages_limit']);
});

test('17 invalid reads: invalid_arguments, then pages_limit, then host_calls_limit', async () => {
  const caught = await resultOf('code', `${collect}
    for (let i = 0; i < 17; i++) await attempt(() => codemode.repo.read({}));
    return codes;`);
  assert.equal(caught.length, 17);
  // The default eight pages, each spent by an input the schema refuses; then the budget; then the
  // 17th host call.
  assert.deepEqual(caught, [...Array(8).fill('invalid_arguments'), ...Array(8).fill('pages_limit'),
                            'host_calls_limit']);
  assert.ok(caught.includes('pages_limit'));
  assert.ok(caught.includes('host_calls_limit'));

  const rethrown = await run('code', `
    for (let i = 0; i < 17; i++) {
      try { await codemode.repo.read({}); }
      catch (e) { if (e.code === 'host_calls_limit') throw e; }
    }
    return 'not reached';`);
  assert.equal(rethrown.isError, true);
  assert.equal(rethrown.shown.code, 'host_calls_limit');
  assert.equal(rethrown.shown.message, 'host-call budget exhausted');

  // Budgets are per invocation: the next program has its pages and host calls again.
  const next = await resultOf('code', `
    const page = await codemode.repo.findRepositories({ pattern: 'alpha' });
    return page.items.map((item) => item.repo);`);
  assert.deepEqual(next, ['code/alpha']);
});

test('an edited cursor is cursor_invalid; one replayed elsewhere is cursor_mismatch', async () => {
  assert.ok(flowSnapshot);
  const shown = await resultOf('code', `
    const snapshot_id = ${JSON.stringify(flowSnapshot)};
    const outcome = async (call) => {
      try { await call(); return 'ok'; } catch (e) { return e.code; }
    };
    const search = { snapshot_id, queries: ['line'], max_results: 1 };
    const page = await codemode.repo.searchCode(search);
    const cursor = page.next_cursor;
    // One character in the middle of the cursor, changed.
    const at = Math.floor(cursor.length / 2);
    const edited = cursor.slice(0, at) + (cursor[at] === 'A' ? 'B' : 'A') + cursor.slice(at + 1);
    const listed = await codemode.repo.list({ snapshot_id, depth: 1, max_items: 1 });
    return {
      edited: await outcome(() => codemode.repo.searchCode({ ...search, cursor: edited })),
      depth: await outcome(() => codemode.repo.list({ snapshot_id, depth: 2, max_items: 1,
                                                      cursor: listed.next_cursor })),
      elsewhere: await outcome(() => codemode.repo.read({ snapshot_id, path: 'README.md',
                                                          cursor: listed.next_cursor })),
      changed: cursor !== edited,
      listed: listed.items.length,
    };`);
  assert.deepEqual(shown, { edited: 'cursor_invalid', depth: 'cursor_mismatch',
                            elsewhere: 'cursor_mismatch', changed: true, listed: 1 });
});

test('tool failures reach the program as their own codes', async () => {
  assert.ok(flowSnapshot);
  const shown = await resultOf('code', `${collect}
    const snapshot_id = ${JSON.stringify(flowSnapshot)};
    await attempt(() => codemode.repo.read({ snapshot_id,
                                             path: '../other/secretrepo/secret.txt' }));
    await attempt(() => codemode.repo.read({ snapshot_id, path: 'src' }));
    await attempt(() => codemode.repo.read({ snapshot_id: 'code/alpha@' + '0'.repeat(40),
                                             path: 'README.md' }));
    await attempt(() => codemode.repo.refs({ repo: 'code/notarepo' }));
    await attempt(() => codemode.repo.refs({ repo: 'code/escape' }));
    return codes;`);
  assert.deepEqual(shown, ['path_refused', 'not_a_file', 'unknown_snapshot', 'unknown_repository',
                           'repository_refused']);
});

test('help and codemode.repo.help list the repo methods, without a tool call', async () => {
  const { tools } = await clients.pages.listTools();
  seen.push(JSON.stringify(tools));
  assert.deepEqual(tools.map((tool) => tool.name), ['code']);
  assert.ok(tools[0].description.includes('searchCode('));
  // Twenty help calls then two pages and an open: help spends neither host calls nor pages.
  const shown = await resultOf('pages', `
    let all;
    for (let i = 0; i < 20; i++) all = codemode.help();
    const one = codemode.help('repo.searchCode');
    const own = codemode.repo.help();
    const ownOne = codemode.repo.help('read');
    const synchronous = typeof all.then === 'undefined' && typeof own.then === 'undefined';
    await codemode.repo.findRepositories({});
    await codemode.repo.findRepositories({});
    await codemode.repo.open({ repo: 'code/alpha' });
    return { methods: all.methods, namespaces: all.namespaces, required: one.inputSchema.required,
             own: own.methods.map((method) => method.name), ownNamespace: own.namespace,
             ownRequired: ownOne.inputSchema.required, synchronous };`);
  for (const method of methods) assert.ok(shown.methods.includes(`repo.${method}`), method);
  assert.ok(shown.namespaces.includes('repo'));
  assert.deepEqual(shown.required, ['snapshot_id', 'queries']);
  // The namespace's own help: its seven methods, and one method's schema.
  assert.deepEqual([...shown.own].sort(), [...methods].sort());
  assert.equal(shown.ownNamespace, 'codemode.repo');
  assert.deepEqual(shown.ownRequired, ['snapshot_id', 'path']);
  assert.equal(shown.synchronous, true);
});

test('a repositories root that does not exist stops the server at start', () => {
  const missing = path.join(fixture, 'no-such-root');
  for (const mode of ['direct', 'code']) {
    const written = writeConfig('codemode-mcp-repo-missing-',
                                { repositories: { roots: { code: missing } } });
    configs.push(written);
    const { configPath } = written;
    const started = spawnSync(cli, ['mcp', '--mode', mode, '--config', configPath],
                              { input: '', encoding: 'utf8', timeout: 30000 });
    assert.equal(started.status, 2, started.stderr);
    assert.equal(started.stdout, '');
    const line = started.stderr.trim().split('\n')[0];
    const { error } = JSON.parse(line);
    assert.equal(error.code, 'INVALID_CONFIG');
    assert.equal(error.rule, 'mcp_config');
    assert.match(error.message, /repositories\.roots\.code/);
    assert.ok(!started.stderr.includes(missing), started.stderr);
    assert.ok(!started.stderr.includes(fixture), started.stderr);
  }
});

test('no answer shows the fixture\'s host path or the secret outside the root', () => {
  assert.ok(seen.length > 20);
  const real = fs.realpathSync(fixture);
  const everything = [...seen, ...Object.values(stderrs)];
  for (const text of everything) {
    assert.ok(!text.includes(secret), text);
    assert.ok(!text.includes(fixture), text);
    assert.ok(!text.includes(real), text);
    assert.ok(!text.includes(JSON.stringify(fixture).slice(1, -1)), text);
  }
});
