#!/usr/bin/env node
// Runs the corpus of programs written the way language models write them (tests/programs/README.md)
// and checks each against the expectation in its leading comment block.
//
// Every program goes to `codemode mcp --mode code` over stdio, through the official MCP SDK client
// (pinned in tests/mcp/node), with the CRM of crm/ served as three command tools; a program marked
// `// via: run` goes to `codemode run --profile model` with the same tools instead. Two servers
// run for the whole corpus, programs concurrently over them: `plain` (console capture off, as a
// host configures by default) and `logs` (consoleLogs on), which runs the programs whose
// expectation names `logs`.
//
// A program that misses its expectation fails the run unless known_failures.txt lists it (then
// it is an expected failure); a listed program that passes is reported so the list gets pruned
// (and fails the run with --strict). The pass rate per category and overall ends the report.
//
//   node tests/programs/run_programs.mjs [--cli build/codemode] [--only TEXT]... [--jobs N]
//                                        [--markdown] [--strict] [--prune] [--verbose]
//
// --cli defaults to $CODEMODE_CLI; scratch files go to a fresh directory under $TMPDIR, removed
// at the end. --only runs the programs whose path contains TEXT; --jobs is how many run at once
// (default 6); --markdown prints the table as docs/mcp.md holds it; --prune removes the XPASS
// programs' lines from known_failures.txt; --verbose adds each missed answer and why each
// expected failure failed. Every program gets one line: PASS, FAIL (and why), XFAIL or XPASS.
// Exit status: 0 when every program met its expectation or is a listed failure, 1 otherwise, 2
// for a usage error or a malformed corpus.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { isDeepStrictEqual } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));
const sdkDir = process.env.CODEMODE_MCP_SDK_DIR ??
               path.join(here, '..', 'mcp', 'node', 'node_modules', '@modelcontextprotocol', 'sdk');

// ---------------------------------------------------------------------------------------------
// Where an answer's fields are read. The code tool's error fields may still be renamed while the
// "model" profile lands: adjust them here and nowhere else.

// A `tools/call` result of the code tool, as {ok, result, logs, error}.
function readMcpAnswer(answer) {
  const content = answer.structuredContent ?? parseText(answer.content);
  if (!answer.isError) return { ok: true, result: content?.result ?? null, logs: content?.logs };
  return {
    ok: false,
    logs: content?.logs,
    error: { code: content?.code, name: content?.name, message: content?.message,
             line: content?.line, column: content?.column, source: content?.source },
  };
}

// `codemode run`'s one JSON line, as {ok, result, logs, error}. A program's own failure is the
// library's TOOL_FAILED / program_error with what it threw in programError.
function readRunAnswer(outcome) {
  if (outcome.status === 'succeeded') {
    return { ok: true, result: outcome.output ?? null, logs: outcome.logs };
  }
  const thrown = outcome.programError ?? {};
  return {
    ok: false,
    logs: outcome.logs,
    error: { code: outcome.error?.code, rule: outcome.error?.rule, name: thrown.name,
             message: thrown.message ?? outcome.error?.message, line: thrown.line,
             column: thrown.column, source: thrown.source },
  };
}

function parseText(content) {
  try { return JSON.parse(content?.[0]?.text ?? 'null'); } catch { return null; }
}

// ---------------------------------------------------------------------------------------------
// Programs and their expectations.

const kDirectives = ['expect', 'note', 'via', 'input'];
const kHeaderLine = new RegExp(`^// (${kDirectives.join('|')}):(.*)$`);

// Reads one program file: its leading directive lines are the header; the rest, exactly as it
// stands, is the text the model sent. Lines and columns in an expectation count in that text.
function loadProgram(file) {
  const id = path.relative(here, file);
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const program = { id, category: id.split(path.sep)[0], expect: {}, via: 'mcp', input: null,
                    notes: [] };
  let index = 0;
  for (; index < lines.length; index++) {
    const match = kHeaderLine.exec(lines[index]);
    if (!match) break;
    const [, key, value] = match;
    if (key === 'expect') Object.assign(program.expect, parseDirective(id, key, value));
    else if (key === 'input') program.input = parseDirective(id, key, value);
    else if (key === 'via') program.via = value.trim();
    else program.notes.push(value.trim());
  }
  program.text = lines.slice(index).join('\n');
  const known = ['result', 'error', 'logs'];
  const unknown = Object.keys(program.expect).filter((key) => !known.includes(key));
  if (unknown.length) throw new Error(`${id}: unknown expectation ${unknown.join(', ')}`);
  if (!('result' in program.expect) && !('error' in program.expect)) {
    throw new Error(`${id}: the header expects neither a result nor an error`);
  }
  if (!['mcp', 'run'].includes(program.via)) throw new Error(`${id}: via is mcp or run`);
  return program;
}

function parseDirective(id, key, value) {
  try { return JSON.parse(value); } catch (error) {
    throw new Error(`${id}: its ${key} line is not JSON: ${error.message}`);
  }
}

function findPrograms() {
  const files = [];
  for (const category of fs.readdirSync(here, { withFileTypes: true })) {
    if (!category.isDirectory() || ['crm', 'node_modules'].includes(category.name)) continue;
    for (const entry of fs.readdirSync(path.join(here, category.name))) {
      if (/\.(js|ts|md)$/.test(entry)) files.push(path.join(here, category.name, entry));
    }
  }
  return files.sort().map(loadProgram);
}

// known_failures.txt: `<program> <reason>` a line; `#` starts a comment.
function loadKnownFailures(programs) {
  const known = new Map();
  const file = path.join(here, 'known_failures.txt');
  const ids = new Set(programs.map((program) => program.id));
  for (const [number, raw] of fs.readFileSync(file, 'utf8').split('\n').entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [, id, reason] = /^(\S+)\s*(.*)$/.exec(line);
    if (!ids.has(id)) throw new Error(`known_failures.txt:${number + 1}: no program ${id}`);
    if (!reason) throw new Error(`known_failures.txt:${number + 1}: ${id} has no reason`);
    known.set(id, reason);
  }
  return known;
}

// Every way `answer` misses `expect`, as sentences; none means it passed.
function mismatches(expect, answer) {
  const misses = [];
  const show = (value) => JSON.stringify(value) ?? 'undefined';
  if ('result' in expect) {
    if (!answer.ok) misses.push(`expected a result, got error ${show(answer.error)}`);
    else if (!isDeepStrictEqual(answer.result, expect.result)) {
      misses.push(`result ${show(answer.result)}, expected ${show(expect.result)}`);
    }
  }
  if ('error' in expect) {
    if (answer.ok) misses.push(`expected an error, got result ${show(answer.result)}`);
    else misses.push(...errorMismatches(expect.error, answer.error));
  }
  if ('logs' in expect && !isDeepStrictEqual(answer.logs, expect.logs)) {
    misses.push(`logs ${show(answer.logs)}, expected ${show(expect.logs)}`);
  }
  return misses;
}

function errorMismatches(expect, error) {
  const misses = [];
  for (const [key, want] of Object.entries(expect)) {
    if (key === 'messageIncludes') {
      if (!String(error.message ?? '').includes(want)) {
        misses.push(`message ${JSON.stringify(error.message)} lacks ${JSON.stringify(want)}`);
      }
    } else if (key === 'messageMatches') {
      if (!new RegExp(want, 'i').test(String(error.message ?? ''))) {
        misses.push(`message ${JSON.stringify(error.message)} does not match /${want}/`);
      }
    } else if (key === 'source') {
      if (String(error.source ?? '').trim() !== want.trim()) {
        misses.push(`source ${JSON.stringify(error.source)}, expected ${JSON.stringify(want)}`);
      }
    } else if (!isDeepStrictEqual(error[key], want)) {
      misses.push(`error.${key} ${JSON.stringify(error[key])}, expected ${JSON.stringify(want)}`);
    }
  }
  return misses;
}

// ---------------------------------------------------------------------------------------------
// The tools, the servers and `codemode run`.

// crm/tools.json with its commands made absolute, for a config outside crm/.
function crmTools() {
  const { tools } = JSON.parse(fs.readFileSync(path.join(here, 'crm', 'tools.json'), 'utf8'));
  for (const tool of tools) tool.command[0] = path.join(here, 'crm', tool.command[0]);
  return tools;
}

// The policy both servers share: at most `hostConcurrency` calls at once, as everywhere; a short
// wall limit so the program that runs past it costs 5 s, not 10; room for the runner's jobs.
const kPolicy = { wallTimeMillis: 5000, serverWorkers: 8, serverInvocations: 8 };

async function startServer(cli, scratch, name, policy) {
  const { Client } = await import(pathToFileURL(path.join(sdkDir, 'dist/esm/client/index.js')));
  const { StdioClientTransport } =
      await import(pathToFileURL(path.join(sdkDir, 'dist/esm/client/stdio.js')));
  const configPath = path.join(scratch, `${name}.json`);
  fs.writeFileSync(configPath, JSON.stringify({ tools: crmTools(), policy }));
  const transport = new StdioClientTransport({
    command: cli, args: ['mcp', '--mode', 'code', '--config', configPath], stderr: 'pipe' });
  const server = { name, stderr: '' };
  transport.stderr.on('data', (chunk) => { server.stderr += chunk; });
  server.client = new Client({ name: 'codemode-programs', version: '1.0.0' });
  await server.client.connect(transport);
  return server;
}

async function runOverMcp(server, program) {
  const answer = await server.client.callTool({ name: 'code', arguments: { code: program.text } },
                                              undefined, { timeout: 60000 });
  return readMcpAnswer(answer);
}

// `--profile model`; CODEMODE_PROGRAMS_RUN_PROFILE overrides the name, and set empty drops the
// flag (to check the corpus's plain-JavaScript expectations on a build without profiles).
const kRunProfile = ((name) => (name ? ['--profile', name] : []))(
    process.env.CODEMODE_PROGRAMS_RUN_PROFILE ?? 'model');

async function runOverCli(cli, scratch, program) {
  const base = program.id.replace(/[^A-Za-z0-9]/g, '_');
  // A .ts program stays one: `codemode run` reads a .ts file as TypeScript.
  const file = path.join(scratch, `${base}${program.id.endsWith('.ts') ? '.ts' : '.js'}`);
  fs.writeFileSync(file, program.text);
  const args = ['run', file, ...kRunProfile, '--tools', path.join(scratch, 'tools.json'),
                '--limits', path.join(scratch, 'limits.json'),
                '--input', JSON.stringify(program.input)];
  const { status, stdout, stderr } = await spawnCollect(cli, args, 60000);
  const firstLine = stderr.trim().split('\n')[0];
  if (status === 2) throw new Error(`codemode run refused its arguments: ${firstLine}`);
  const line = stdout.trim().split('\n').at(-1);
  try { return readRunAnswer(JSON.parse(line)); } catch {
    throw new Error(`codemode run exited ${status} without an outcome: ${firstLine}`);
  }
}

function spawnCollect(command, args, timeoutMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

// ---------------------------------------------------------------------------------------------
// The run and its report.

async function runAll(cli, programs, jobs) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'codemode-programs-'));
  try {
    fs.writeFileSync(path.join(scratch, 'tools.json'), JSON.stringify({ tools: crmTools() }));
    fs.writeFileSync(path.join(scratch, 'limits.json'),
                     JSON.stringify({ wallTimeMillis: kPolicy.wallTimeMillis }));
    const servers = {
      plain: await startServer(cli, scratch, 'plain', kPolicy),
      logs: await startServer(cli, scratch, 'logs', { ...kPolicy, consoleLogs: true }),
    };
    try {
      const outcomes = new Array(programs.length);
      let next = 0;
      const worker = async () => {
        while (next < programs.length) {
          const index = next++;
          outcomes[index] = await runOne(cli, scratch, servers, programs[index]);
        }
      };
      await Promise.all(Array.from({ length: jobs }, worker));
      return outcomes;
    } finally {
      for (const server of Object.values(servers)) await server.client.close();
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

async function runOne(cli, scratch, servers, program) {
  const started = Date.now();
  try {
    const answer = program.via === 'run'
        ? await runOverCli(cli, scratch, program)
        : await runOverMcp('logs' in program.expect ? servers.logs : servers.plain, program);
    return { answer, misses: mismatches(program.expect, answer), millis: Date.now() - started };
  } catch (error) {
    return { misses: [`did not run: ${error.message}`], millis: Date.now() - started };
  }
}

// Rewrites known_failures.txt without the lines of `passed` (programs listed there that passed),
// except those whose reason says they pass only sometimes.
function pruneKnownFailures(passed) {
  const file = path.join(here, 'known_failures.txt');
  const kept = fs.readFileSync(file, 'utf8').split('\n').filter((line) =>
      !passed.has(line.trim().split(/\s/)[0]) || line.includes('(only sometimes: timing)'));
  fs.writeFileSync(file, kept.join('\n'));
}

function report(programs, outcomes, known, { markdown, verbose }) {
  const byCategory = new Map();
  const lines = [];
  let failed = 0;
  const unexpectedPasses = new Set();
  programs.forEach((program, index) => {
    const { misses, millis, answer } = outcomes[index];
    const counts = byCategory.get(program.category) ??
                   { programs: 0, pass: 0, expectedFailures: 0, fail: 0 };
    byCategory.set(program.category, counts);
    counts.programs++;
    const reason = known.get(program.id);
    if (misses.length === 0) {
      counts.pass++;
      if (reason) {
        unexpectedPasses.add(program.id);
        lines.push(`XPASS ${program.id}: passes; remove it from known_failures.txt (${reason})`);
      } else {
        lines.push(`PASS  ${program.id} (${millis} ms)`);
      }
    } else if (reason) {
      counts.expectedFailures++;
      lines.push(`XFAIL ${program.id}: ${reason}`);
      if (verbose) lines.push(`      ${misses.join('; ')}`);
    } else {
      counts.fail++;
      failed++;
      lines.push(`FAIL  ${program.id}: ${misses.join('; ')}`);
      if (verbose && answer) lines.push(`      answer: ${JSON.stringify(answer)}`);
    }
  });
  console.log(lines.join('\n'));
  console.log(markdown ? markdownTable(byCategory) : plainTable(byCategory));
  return { failed, unexpectedPasses };
}

function totals(byCategory) {
  const all = { programs: 0, pass: 0, expectedFailures: 0, fail: 0 };
  for (const counts of byCategory.values()) {
    for (const key of Object.keys(all)) all[key] += counts[key];
  }
  return all;
}

const percent = ({ pass, programs }) => `${Math.round((100 * pass) / Math.max(programs, 1))}%`;

function plainTable(byCategory) {
  const rows = [['category', 'programs', 'pass', 'xfail', 'fail', 'pass rate']];
  const row = (name, c) => [name, c.programs, c.pass, c.expectedFailures, c.fail, percent(c)];
  for (const [name, counts] of byCategory) rows.push(row(name, counts));
  rows.push(row('overall', totals(byCategory)));
  const widths = rows[0].map((_, column) => Math.max(...rows.map((r) => String(r[column]).length)));
  return '\n' + rows.map((r) => r.map((cell, column) => column === 0
      ? String(cell).padEnd(widths[column]) : String(cell).padStart(widths[column])).join('  '))
      .join('\n');
}

function markdownTable(byCategory) {
  const rows = ['| category | programs | pass on main |', '| --- | ---: | ---: |'];
  const row = (name, c) => `| ${name} | ${c.programs} | ${c.pass} (${percent(c)}) |`;
  for (const [name, counts] of byCategory) rows.push(row(name, counts));
  rows.push(row('**overall**', totals(byCategory)));
  return '\n' + rows.join('\n');
}

async function main() {
  const { values } = parseArgs({ options: {
    cli: { type: 'string', default: process.env.CODEMODE_CLI },
    only: { type: 'string', multiple: true, default: [] },
    jobs: { type: 'string', default: '6' },
    markdown: { type: 'boolean', default: false },
    strict: { type: 'boolean', default: false },
    prune: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  } });
  if (!values.cli || !fs.existsSync(values.cli)) {
    console.error('run_programs: --cli or CODEMODE_CLI must name the built codemode binary');
    return 2;
  }
  let all;
  let known;
  try {
    all = findPrograms();
    known = loadKnownFailures(all);
  } catch (error) {  // a malformed header or list: the corpus itself is wrong
    console.error(`run_programs: ${error.message}`);
    return 2;
  }
  const programs = values.only.length
      ? all.filter((program) => values.only.some((text) => program.id.includes(text))) : all;
  const started = Date.now();
  const outcomes = await runAll(path.resolve(values.cli), programs, Number(values.jobs));
  const { failed, unexpectedPasses } = report(programs, outcomes, known, values);
  console.log(`\n${programs.length} programs in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (values.prune && unexpectedPasses.size > 0) {
    pruneKnownFailures(unexpectedPasses);
    console.log(`removed ${unexpectedPasses.size} passing programs from known_failures.txt`);
  }
  return failed > 0 || (values.strict && unexpectedPasses.size > 0) ? 1 : 0;
}

process.exitCode = await main();
