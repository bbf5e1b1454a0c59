#!/usr/bin/env node
// A second opinion on the corpus's expectations: runs each program in node with the code tool as
// the model profile describes it (docs/mcp.md), emulated, and says where the answer differs from
// the program's expectation. An author's tool, not a test: node is not SpiderMonkey, so a
// difference is a question to look into, not a verdict (errors about host globals such as fetch,
// which node has, always differ).
//
//   node tests/programs/node_reference.mjs [TEXT]...     programs whose path contains TEXT
//
// What it emulates: the header and a surrounding markdown fence removed; a whole function
// expression called, anything else run as an async function body; TypeScript erased with the
// TypeScript compiler's transpileModule (from $CODEMODE_TYPESCRIPT, a path to the `typescript`
// package, else tests/typescript/node_modules/typescript; without it TypeScript programs are
// skipped); codemode.crm.* and tools.call over crm/crm.sh with the input schemas checked, outputs
// with sorted keys, the 16-call budget; console captured in codemode's format; timers and the
// ES2023-2025 methods node 20 lacks (simple versions below); the 5 s wall limit (a program that
// expects deadline_exceeded is skipped: a busy loop would hang node). Line and column of an
// error are node's, compared only for JavaScript.
//
// An expectation written as "TODO" ({"result": "TODO"} or {"logs": "TODO"}) is replaced in the
// file by node's answer: review it before committing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));
const kHeaderLine = /^\/\/ (expect|note|via|input):(.*)$/;
const AsyncFunction = (async () => {}).constructor;

function loadTypeScript() {
  const candidates = [process.env.CODEMODE_TYPESCRIPT,
                      path.join(here, '..', 'typescript', 'node_modules', 'typescript')];
  for (const candidate of candidates.filter(Boolean)) {
    try { return createRequire(import.meta.url)(candidate); } catch { /* the next one */ }
  }
  return null;
}
const ts = loadTypeScript();

// ---- What node 20 lacks of ES2023-2025, simply (enough for the corpus, not conformant) --------
function polyfill() {
  const define = (target, name, value) => {
    if (!(name in target)) {
      Object.defineProperty(target, name, { value, writable: true, configurable: true });
    }
  };
  define(Object, 'groupBy', (items, key) => {
    const out = Object.create(null);
    let i = 0;
    for (const x of items) (out[key(x, i++)] ??= []).push(x);
    return out;
  });
  define(Map, 'groupBy', (items, key) => {
    const out = new Map();
    let i = 0;
    for (const x of items) {
      const k = key(x, i++);
      if (!out.has(k)) out.set(k, []);
      out.get(k).push(x);
    }
    return out;
  });
  define(Promise, 'withResolvers', function withResolvers() {
    let resolve;
    let reject;
    const promise = new this((a, b) => { resolve = a; reject = b; });
    return { promise, resolve, reject };
  });
  define(Array, 'fromAsync', async (items, map) => {
    const out = [];
    let i = 0;
    if (items[Symbol.asyncIterator]) {
      for await (const x of items) out.push(map ? await map(x, i++) : x);
    } else {
      for (const x of items) out.push(map ? await map(await x, i++) : await x);
    }
    return out;
  });
  const set = Set.prototype;
  define(set, 'union', function union(o) { return new Set([...this, ...o.keys()]); });
  define(set, 'intersection', function intersection(o) {
    return new Set([...this].filter((x) => o.has(x)));
  });
  define(set, 'difference', function difference(o) {
    return new Set([...this].filter((x) => !o.has(x)));
  });
  define(set, 'symmetricDifference', function symmetricDifference(o) {
    const out = new Set(this);
    for (const x of o.keys()) { if (this.has(x)) out.delete(x); else out.add(x); }
    return out;
  });
  define(set, 'isSubsetOf', function isSubsetOf(o) { return [...this].every((x) => o.has(x)); });
  define(set, 'isSupersetOf', function isSupersetOf(o) {
    return [...o.keys()].every((x) => this.has(x));
  });
  define(set, 'isDisjointFrom', function isDisjointFrom(o) {
    return [...this].every((x) => !o.has(x));
  });
  const iterator = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));
  const each = (it) => ({ [Symbol.iterator]: () => it });
  define(iterator, 'map', function* map(f) {
    let i = 0;
    for (const x of each(this)) yield f(x, i++);
  });
  define(iterator, 'filter', function* filter(f) {
    let i = 0;
    for (const x of each(this)) if (f(x, i++)) yield x;
  });
  define(iterator, 'take', function* take(n) {
    let i = 0;
    if (n > 0) for (const x of each(this)) { yield x; if (++i >= n) return; }
  });
  define(iterator, 'drop', function* drop(n) {
    let i = 0;
    for (const x of each(this)) if (i++ >= n) yield x;
  });
  define(iterator, 'flatMap', function* flatMap(f) {
    let i = 0;
    for (const x of each(this)) yield* f(x, i++);
  });
  define(iterator, 'toArray', function toArray() { return [...each(this)]; });
  define(iterator, 'forEach', function forEach(f) {
    let i = 0;
    for (const x of each(this)) f(x, i++);
  });
  define(iterator, 'some', function some(f) { return [...each(this)].some(f); });
  define(iterator, 'every', function every(f) { return [...each(this)].every(f); });
  define(iterator, 'find', function find(f) { return [...each(this)].find(f); });
  define(iterator, 'reduce', function reduce(...args) { return [...each(this)].reduce(...args); });
  define(String.prototype, 'isWellFormed', function isWellFormed() {
    return !/\p{Surrogate}/u.test(this);
  });
  define(String.prototype, 'toWellFormed', function toWellFormed() {
    return this.replace(/\p{Surrogate}/gu, '\uFFFD');
  });
}

// ---- The tools ------------------------------------------------------------------------------
const crmTools = JSON.parse(fs.readFileSync(path.join(here, 'crm', 'tools.json'), 'utf8')).tools;

// The refusal of the flat schemas crm/tools.json has, as "/pointer: rule", or null.
// The first failure as codemode words it (docs/json-and-schemas.md), for the keywords crm uses.
function schemaProblem(schema, value, pointer = '') {
  const kind = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  const at = pointer || '(root)';
  if (schema.type === 'object') {
    if (kind(value) !== 'object') return `${at}: must be object`;
    for (const key of schema.required ?? []) {
      if (!(key in value)) return `${at}: missing required property "${key}"`;
    }
    for (const key of Object.keys(value).sort()) {
      const sub = schema.properties?.[key];
      const token = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      if (sub) {
        const problem = schemaProblem(sub, value[key], token);
        if (problem) return problem;
      } else if (schema.additionalProperties === false) {
        return `${token}: property not allowed (additionalProperties)`;
      }
    }
    return null;
  }
  if (schema.type === 'string' && typeof value !== 'string') return `${at}: must be string`;
  if (schema.enum && !schema.enum.includes(value)) {
    return `${at}: must be one of the allowed values`;
  }
  return null;
}

function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys(value[k])]));
  }
  return value;
}

// Levenshtein distance, for the unknown method's suggestion.
function distance(a, b) {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const here = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = here;
    }
  }
  return row[b.length];
}

const toolError = (code, message, operation) =>
  Object.assign(new Error(message), { code, operation });

function makeGlobals(state) {
  const call = async (id, args) => {
    if (++state.calls > 16) throw toolError('host_calls_limit', 'host-call budget exhausted', id);
    const tool = crmTools.find((t) => t.id === id);
    await new Promise((resolve) => setImmediate(resolve));
    const problem = schemaProblem(tool.inputSchema, JSON.parse(JSON.stringify(args ?? null)));
    if (problem) {
      throw toolError('invalid_arguments', problem, id);
    }
    const run = spawnSync(path.join(here, 'crm', tool.command[0]), tool.command.slice(1),
                          { input: JSON.stringify(args) });
    if (run.status !== 0) throw toolError('tool_failed', 'The tool call failed.', id);
    return sortKeys(JSON.parse(run.stdout));
  };
  const methods = Object.fromEntries(
      crmTools.map((t) => [t.id.split('.')[1], (args) => call(t.id, args)]));
  const crm = new Proxy(methods, { get: (target, name) => target[name] ?? (() => {
    const wanted = String(name);
    const closest = Object.keys(methods)
        .sort((a, b) => distance(a, wanted) - distance(b, wanted))[0];
    throw toolError('unknown_method', `crm.${wanted} is not a method; did you mean crm.${closest}?`,
                    `crm.${wanted}`);
  }) });
  const library = { invalid_arguments: ['INVALID_INPUT', 'input_schema'],
                    tool_failed: ['TOOL_FAILED', 'tool_failed'] };
  const tools = { call: async (id, args) => {
    try { return { status: 'succeeded', output: await call(id, args) }; } catch (error) {
      const [code, rule] = library[error.code] ?? [error.code, error.code];
      return { status: 'failed', error: { code, rule, message: error.message } };
    }
  } };
  const describe = (t) => ({ name: t.id, description: t.description });
  const help = (name) => (name === undefined
      ? { methods: crmTools.map((t) => t.id), namespaces: ['crm'] }
      : ((tool) => ({ ...describe(tool), inputSchema: tool.inputSchema }))(
          crmTools.find((t) => t.id === name)));
  const search = (text) => crmTools.filter((t) => `${t.id} ${t.description}`.toLowerCase()
      .includes(text.toLowerCase())).map(describe);
  return { codemode: { crm, help, search }, tools, console: makeConsole(state.logs) };
}

function makeConsole(logs) {
  const render = (value) => {
    if (typeof value === 'string') return value;
    if (typeof value === 'function') return '[function]';
    try { return JSON.stringify(value) ?? String(value); } catch { return String(value); }
  };
  const line = (prefix) => (...args) => logs.push(prefix + args.map(render).join(' '));
  return { log: line(''), info: line('[info] '), warn: line('[warn] '), error: line('[error] '),
           debug: line('[debug] ') };
}

// ---- One program ----------------------------------------------------------------------------
function readProgram(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const program = { id: path.relative(here, file), expect: {}, via: 'mcp', input: null };
  let index = 0;
  for (; index < lines.length && kHeaderLine.test(lines[index]); index++) {
    const [, key, value] = kHeaderLine.exec(lines[index]);
    if (key === 'expect') Object.assign(program.expect, JSON.parse(value));
    if (key === 'via') program.via = value.trim();
    if (key === 'input') program.input = JSON.parse(value);
  }
  program.text = lines.slice(index).join('\n');
  return program;
}

// What the model profile refuses (enums, namespaces, import = require, decorators, parameter
// properties): the expectation says what happens, node has nothing to add.
const kRefused = new RegExp([
  String.raw`\benum\s`, String.raw`\bnamespace\s+\w+\s*\{`, String.raw`import\s+\w+\s*=\s*require`,
  String.raw`^\s*@\w+`, String.raw`constructor\s*\(\s*(private|public|protected|readonly)\s`,
].join('|'), 'm');

// The text as the code tool compiles it, or {skip} when node cannot say.
function compileText(file, text) {
  const fence = /^\s*```([A-Za-z]*)[^\n]*\n([\s\S]*?)\n?```\s*$/.exec(text);
  let body = fence ? fence[2] : text;
  const typescript = file.endsWith('.ts') || /^(ts|typescript)$/.test(fence?.[1] ?? '');
  if (!typescript) return { body };
  if (kRefused.test(body)) return { skip: 'a TypeScript construct the profile refuses' };
  if (!ts) return { skip: 'no TypeScript compiler (set CODEMODE_TYPESCRIPT)' };
  const wrapped = ts.transpileModule(`async function __program__() {\n${body}\n}`, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
  body = wrapped.replace(/^async function __program__\(\) \{\n/, '').replace(/\}\s*$/, '');
  return { body };
}

async function answerOf(program, body) {
  const state = { calls: 0, logs: [], timers: [] };
  const globals = makeGlobals(state);
  const names = ['codemode', 'tools', 'input', 'console', 'setTimeout', 'setInterval'];
  const values = [globals.codemode, globals.tools, program.input, globals.console,
                  (...a) => { const t = setTimeout(...a); state.timers.push(t); return t; },
                  (...a) => { const t = setInterval(...a); state.timers.push(t); return t; }];
  let expression = null;
  try {
    const bare = body.replace(/[;\s]*(\/\/[^\n]*)?\s*$/, '');  // trailing ; and comment
    const candidate = new Function(...names, `return (${bare}\n)`)(...values);
    if (typeof candidate === 'function') expression = candidate;
  } catch { /* a body */ }
  let answer;
  try {
    const run = program.via === 'run' ? () => expression(program.input, globals.tools)
        : expression ? () => expression() : () => new AsyncFunction(...names, body)(...values);
    let timer;
    const deadline = new Promise((_, reject) => {
      const stop = () => reject(Object.assign(new Error('deadline'), { deadline: true }));
      timer = setTimeout(stop, 5000);
    });
    // run() may throw at once (a syntax error): the race still handles the deadline's rejection.
    const running = (async () => run())();
    const value = await Promise.race([running, deadline]).finally(() => clearTimeout(timer));
    answer = { ok: true, result: JSON.parse(JSON.stringify(value ?? null)) };
  } catch (error) {
    const where = /<anonymous>:(\d+):(\d+)/.exec(error?.stack ?? '');
    answer = { ok: false, error: error?.deadline ? { code: 'deadline_exceeded' } : {
      code: error?.code === 'host_calls_limit' ? 'host_calls_limit' : 'code_rejected',
      name: error?.name, message: String(error?.message ?? error),
      line: where ? Number(where[1]) - 2 : undefined, column: where ? Number(where[2]) : undefined,
    } };
  }
  state.timers.forEach(clearTimeout);
  answer.logs = state.logs;
  return answer;
}

function differences(program, answer, typescript) {
  const { expect } = program;
  const out = [];
  if ('result' in expect && (!answer.ok || !isDeepStrictEqual(answer.result, expect.result))) {
    out.push(`got ${JSON.stringify(answer.ok ? answer.result : answer.error)}`);
  }
  if ('error' in expect) {
    if (answer.ok) return [`got the result ${JSON.stringify(answer.result)}`];
    const want = expect.error;
    const got = answer.error;
    for (const key of ['code', 'name', ...(typescript ? [] : ['line', 'column'])]) {
      if (key in want && got[key] !== undefined && want[key] !== got[key] &&
          !(program.via === 'run' && key === 'code')) out.push(`${key} ${got[key]}`);
    }
    if (want.messageIncludes && !got.message?.includes(want.messageIncludes)) {
      out.push(`message ${JSON.stringify(got.message)}`);
    }
  }
  if ('logs' in expect && !isDeepStrictEqual(answer.logs, expect.logs)) {
    out.push(`logs ${JSON.stringify(answer.logs)}`);
  }
  return out;
}

// Writes node's answer into a "TODO" expectation.
function fill(file, program, answer) {
  let text = fs.readFileSync(file, 'utf8');
  if (program.expect.result === 'TODO') {
    const result = answer.ok ? answer.result : `ERROR ${JSON.stringify(answer.error)}`;
    text = text.replace('// expect: {"result": "TODO"}',
                        `// expect: ${JSON.stringify({ result })}`);
  }
  if (program.expect.logs === 'TODO') {
    text = text.replace('// expect: {"logs": "TODO"}',
                        `// expect: ${JSON.stringify({ logs: answer.logs })}`);
  }
  fs.writeFileSync(file, text);
}

async function main() {
  polyfill();
  const filters = process.argv.slice(2);
  const files = fs.readdirSync(here, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'crm')
      .flatMap((dir) => fs.readdirSync(path.join(here, dir.name))
          .filter((name) => /\.(js|ts|md)$/.test(name))
          .map((name) => path.join(here, dir.name, name)))
      .filter((file) => !filters.length || filters.some((text) => file.includes(text)))
      .sort();
  let differing = 0;
  for (const file of files) {
    const program = readProgram(file);
    const compiled = compileText(file, program.text);
    if (program.expect.error?.code === 'deadline_exceeded') compiled.skip = 'expects the deadline';
    if (compiled.skip) { console.log(`skip  ${program.id}: ${compiled.skip}`); continue; }
    const answer = await answerOf(program, compiled.body);
    if (program.expect.result === 'TODO' || program.expect.logs === 'TODO') {
      fill(file, program, answer);
      console.log(`fill  ${program.id}: ${JSON.stringify(answer)}`);
      continue;
    }
    const diffs = differences(program, answer, file.endsWith('.ts') || file.endsWith('.md'));
    if (diffs.length) differing++;
    console.log(diffs.length ? `DIFF  ${program.id}: ${diffs.join('; ')}` : `same  ${program.id}`);
  }
  console.log(`\n${files.length} programs, ${differing} differ from node`);
}

await main();
