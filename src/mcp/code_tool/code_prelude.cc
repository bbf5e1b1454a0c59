#include "mcp/code_tool/code_prelude.h"

#include <utility>
#include <vector>

#include "mcp/catalog/tool_results.h"

namespace codemode::mcp {
namespace {

// Builds `codemode` (and `console`) over the program's own `tools.call`, and compiles the model's
// code as a function of its own. Everything it relies on is captured here, before the model's code
// runs, so a program that replaces a builtin changes only its own view: the wrapper's state is in
// closures the model's function cannot name (it is compiled in the global scope), and what the
// wrapper returns has no prototype, so no `then` or `toJSON` of the program's can replace it. The
// tables and the model's text are spliced in as JSON, which is valid JavaScript.
constexpr std::string_view kPrelude = R"js(
  const { main, checked, envelope, caught } = (() => {
    const callTool = tools.call;
    const global = globalThis;
    const defineProperty = Object.defineProperty;
    const setPrototypeOf = Object.setPrototypeOf;
    const freeze = Object.freeze;
    const stringify = JSON.stringify;
    const isFinite = Number.isFinite;
    const toText = String;
    const ErrorClass = Error;
    const TypeErrorClass = TypeError;
    const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
    // The model profile's compiler of the model's code (the worker's engine_model_code.h); the
    // standard profile has none.
    const compileCode = global.__codemodeCompileCode;
    delete global.__codemodeCompileCode;
    // RegExp.prototype.exec and the String methods as they are now, called directly: a program's
    // RegExp.prototype[Symbol.replace], exec or String.prototype.slice cannot change what they do.
    const exec = Function.prototype.call.bind(RegExp.prototype.exec);
    const slice = Function.prototype.call.bind(String.prototype.slice);
    const unitAt = Function.prototype.call.bind(String.prototype.charCodeAt);
    const own = new WeakSet();
    const remember = WeakSet.prototype.add.bind(own);
    const isOwn = WeakSet.prototype.has.bind(own);
    // The size of each result this prelude refused, by its marker: never read from the marker,
    // whose prototype chain a program can extend.
    const measured = new WeakMap();
    const recordSize = WeakMap.prototype.set.bind(measured);
    const sizeOf = WeakMap.prototype.get.bind(measured);
    const PromiseClass = Promise;
    const then = Function.prototype.call.bind(Promise.prototype.then);
    const RULES = Object.assign(Object.create(null), @RULES@);
    const failure = (code, operation, message) => {
      const error = new ErrorClass(message);
      defineProperty(error, 'code', { value: code, enumerable: true });
      defineProperty(error, 'operation', { value: operation, enumerable: true });
      remember(error);
      return error;
    };
    // No await here: await looks up the call's promise's constructor, which a program can
    // redefine to hand this wrapper its own answer (and so a forged rule). The captured then
    // registers on the host's promise itself, so the answer read below is the host's.
    const wrapper = (id) => (args) => new PromiseClass((resolve, reject) => {
      then(callTool(id, args === undefined ? {} : args), (answer) => {
        if (answer.status === 'succeeded') return resolve(answer.output);
        const shown = RULES[answer.error.rule];
        return reject(failure(shown ? shown[0] : answer.error.rule, id,
                              shown && shown[1] !== null ? shown[1] : answer.error.message));
      }, reject);
    });
    const distance = (a, b) => {
      const row = Array.from({ length: b.length + 1 }, (_, i) => i);
      for (let i = 1; i <= a.length; i++) {
        let previous = row[0];
        row[0] = i;
        for (let j = 1; j <= b.length; j++) {
          const kept = row[j];
          row[j] = Math.min(row[j] + 1, row[j - 1] + 1,
                            previous + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
          previous = kept;
        }
      }
      return row[b.length];
    };
    const closest = (key, known) => known.slice().sort((a, b) =>
        distance(key, a) - distance(key, b) || a.localeCompare(b))[0];
    const unknown = (name, key, known) => {
      const best = closest(key, known);
      const hint = best === undefined ? '' : ` Did you mean '${best}'?`;
      return failure('unknown_method', `${name}.${key}`,
                     `Unknown method '${name}.${key}'.${hint} Call codemode.help() for the list.`);
    };
    const guarded = (name, target) => new Proxy(freeze(target), {
      get(object, key) {
        if (typeof key === 'symbol' || Object.prototype.hasOwnProperty.call(object, key)) {
          return object[key];
        }
        throw unknown(name, key, Object.keys(object));
      },
    });
    const spaces = {};
    const catalog = [];
    for (const [space, method, id, description, inputSchema] of @METHODS@) {
      (spaces[space] = spaces[space] || {})[method] = wrapper(id);
      catalog.push(freeze({ name: `${space}.${method}`, description, inputSchema }));
    }
    // Each namespace's own help, first among its keys: its methods, or one method's description
    // and input schema.
    const helpFor = (space) => {
      const prefix = `${space}.`;
      const entries = catalog.filter((entry) => entry.name.startsWith(prefix));
      const names = entries.map((entry) => entry.name.slice(prefix.length));
      return (name) => {
        if (name === undefined) {
          return { namespace: `codemode.${space}`,
                   methods: entries.map(({ name, description }) =>
                       ({ name: name.slice(prefix.length), description })),
                   usage: `await codemode.${space}.<method>(args); ` +
                          `codemode.${space}.help(method) gives its input schema.` };
        }
        const key = String(name).replace(/^codemode\./, '').replace(prefix, '');
        const found = entries.find((entry) => entry.name === prefix + key);
        if (found) return found;
        throw unknown(`codemode.${space}`, key, names);
      };
    };
    const root = {};
    for (const space of Object.keys(spaces)) {
      root[space] = guarded(`codemode.${space}`,
                            Object.assign({ help: helpFor(space) }, spaces[space]));
    }
    // Answered here, from the table: no tool call, nothing counted.
    root.help = (name) => {
      if (name === undefined) {
        return { namespaces: Object.keys(spaces), methods: catalog.map((entry) => entry.name),
                 usage: 'await codemode.<namespace>.<method>(args); help(name) describes one; ' +
                        'search(text) finds methods.' };
      }
      const key = String(name).replace(/^codemode\./, '');
      const found = catalog.find((entry) => entry.name === key);
      if (found) return found;
      throw unknown('codemode', key, catalog.map((entry) => entry.name));
    };
    root.search = (text) => {
      const needle = String(text).toLowerCase();
      return catalog.filter((entry) => entry.name.toLowerCase().includes(needle) ||
                                       entry.description.toLowerCase().includes(needle))
                    .map(({ name, description }) => ({ name, description }));
    };

    // console capture: the lines, as a compact JSON array, within LOG_BYTES.
    const LOG_BYTES = @LOG_BYTES@;
    const MARKER = @MARKER@;
    const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
    const lines = setPrototypeOf([], null);
    let used = 1;  // "[": each line then adds its JSON and one "," or the closing "]"
    let open = LOG_BYTES > 0;
    const wellFormed = (text) => {
      let out = '';
      let from = 0;
      LONE.lastIndex = 0;
      for (let found = exec(LONE, text); found !== null; found = exec(LONE, text)) {
        out += slice(text, from, found.index) + '\ufffd';
        from = found.index + 1;
      }
      return from === 0 ? text : out + slice(text, from);
    };
    const utf8 = (text) => {  // REQUIRES: text is well formed
      let bytes = 0;
      for (let i = 0; i < text.length; i++) {
        const unit = unitAt(text, i);
        if (unit < 0x80) bytes += 1;
        else if (unit < 0x800) bytes += 2;
        else if (unit >= 0xd800 && unit <= 0xdbff) { bytes += 4; i++; }
        else bytes += 3;
      }
      return bytes;
    };
    const cost = (line) => utf8(stringify(line)) + 1;
    const keep = (line) => defineProperty(lines, lines.length, {
      value: line, writable: true, enumerable: true, configurable: true });
    // The longest prefix of `line` that costs at most `room`, never half a surrogate pair.
    const fit = (line, room) => {
      let low = 0;
      let high = line.length;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if (cost(slice(line, 0, middle)) <= room) low = middle; else high = middle - 1;
      }
      const last = unitAt(line, low - 1);
      return slice(line, 0, last >= 0xd800 && last <= 0xdbff ? low - 1 : low);
    };
    const append = (text) => {
      const line = wellFormed(text.length > LOG_BYTES ? slice(text, 0, LOG_BYTES) : text);
      const needed = cost(line);
      if (used + needed + cost(MARKER) <= LOG_BYTES) {
        keep(line);
        used += needed;
        return;
      }
      const part = fit(line, LOG_BYTES - used - cost(MARKER));
      if (part.length > 0) keep(part);
      keep(MARKER);
      open = false;
    };
    const render = (value) => {
      if (typeof value === 'string') return value;
      if (typeof value === 'function') return '[function]';
      try {
        if (typeof value === 'object' && value !== null && !(value instanceof ErrorClass)) {
          const text = stringify(value);
          if (typeof text === 'string') return text;
        }
      } catch (_) {}
      try { return toText(value); } catch (_) { return '[unrenderable]'; }
    };
    const emit = (prefix) => (...values) => {
      try {
        if (!open) return;
        let line = prefix;
        for (let i = 0; i < values.length && line.length <= LOG_BYTES; i++) {
          line += (i === 0 ? '' : ' ') + render(values[i]);
        }
        append(line);
      } catch (_) {}  // console never throws into the program
    };
    const console = LOG_BYTES > 0 ? freeze({
      log: emit(''), info: emit('[info] '), warn: emit('[warn] '), error: emit('[error] '),
      debug: emit('[debug] ') }) : undefined;

    // The program's result (code_prelude.h); built as literals, which no setter can intercept,
    // without a prototype: resolving the wrapper's promise with it looks up no `then`, and the
    // worker's JSON.stringify of it calls no `toJSON`, that the program put on Object.prototype.
    const envelope = (key, value) => {
      open = false;
      return LOG_BYTES > 0 ? { __proto__: null, [key]: value, logs: lines }
                           : { __proto__: null, [key]: value };
    };
    const describe = (error) => {
      try {
        const object = (typeof error === 'object' && error !== null) || typeof error === 'function';
        const message = object ? error.message : toText(error);
        return typeof message === 'string' ? wellFormed(slice(message, 0, 1024)) : '';
      } catch (_) {
        return '';
      }
    };
    const caught = (error) => {
      // A budget the server ran out of stays that budget's code when the program rethrows it.
      if (isOwn(error) &&
          (error.code === 'host_calls_limit' || error.code === 'server_host_operations_limit')) {
        return envelope('error', { __proto__: null, code: error.code });
      }
      const bytes = sizeOf(error);
      if (bytes !== undefined) {
        return envelope('error', { __proto__: null, code: 'final_result_bytes_limit', bytes });
      }
      if (LOG_BYTES === 0) throw error;
      return envelope('error', { __proto__: null, code: 'code_rejected', message: describe(error) });
    };
    // The returned value must be JSON as it is: a cycle, a BigInt or a throwing toJSON (which
    // JSON.stringify refuses) and a NaN or an infinity (which it would turn into null) are the
    // program's error, code_rejected, rather than a result the host cannot take or a changed one.
    const finiteOnly = (key, value) => {
      if (typeof value === 'number' && !isFinite(value)) {
        throw new TypeErrorClass('The result holds a number JSON cannot represent.');
      }
      return value;
    };
    // A result over FINAL_BYTES is refused here with its measured size (JSON.stringify's text
    // escapes lone surrogates, so it is well formed): its UTF-16 units plus, for each run of
    // characters of 2, 3 or 4 UTF-8 bytes, what they add (found by the regexp engine, run by
    // run, so that only the runs are counted here). The parent measures again in any case.
    const FINAL_BYTES = @FINAL_BYTES@;
    const WIDER = [[/[\u0080-\u07ff]+/g, 1], [/[\u0800-\ud7ff\ue000-\uffff]+/g, 2],
                   [/(?:[\ud800-\udbff][\udc00-\udfff])+/g, 1]];
    const utf8Of = (text) => {
      let bytes = text.length;
      for (let i = 0; i < 3; i++) {
        const pattern = WIDER[i][0];
        pattern.lastIndex = 0;
        for (let run = exec(pattern, text); run !== null; run = exec(pattern, text)) {
          bytes += run[0].length * WIDER[i][1];
        }
      }
      return bytes;
    };
    const oversized = (bytes) => {
      const marker = freeze({ __proto__: null, code: 'final_result_bytes_limit' });
      recordSize(marker, bytes);
      return marker;
    };
    const checked = (value) => {
      open = false;  // main has settled: a toJSON's console.log is dropped
      let text;
      try {
        text = stringify(value, finiteOnly);
      } catch (error) {
        throw new TypeErrorClass(`The result is not JSON: ${describe(error)}`);
      }
      if (typeof text === 'string' && text.length > FINAL_BYTES / 3) {
        const bytes = utf8Of(text);
        if (bytes > FINAL_BYTES) throw oversized(bytes);
      }
      return value;
    };

    // The model's code: parsed alone, as the whole body of a function of its own (the engine
    // rejects a body that would end before its text does), in the global scope, where what it
    // may use is defined, read-only, as globals its own declarations shadow. A syntax error is
    // thrown here, before the try below: the program's error, as a compile error always was.
    const expose = (name, value) => defineProperty(global, name, { value, enumerable: false });
    expose('input', input);
    expose('tools', tools);
    expose('codemode', guarded('codemode', root));
    if (console !== undefined) expose('console', console);
    const main = @COMPILE@(@BODY@);
    return { main, checked, envelope, caught };
  })();
)js";

constexpr std::string_view kEpilogue = R"js(try {
  const value = checked(await main());
  return envelope('result', value === undefined ? null : value);
} catch (error) {
  return caught(error);
}
)js";

// `text` with each placeholder replaced once by its value. The values are never searched, so a
// tool description holding "@RULES@" stays text.
std::string fill(std::string_view text,
                 const std::vector<std::pair<std::string_view, std::string>>& values) {
  std::string out;
  std::size_t position = 0;
  for (const auto& [placeholder, value] : values) {
    const std::size_t found = text.find(placeholder, position);
    out.append(text.substr(position, found - position)).append(value);
    position = found + placeholder.size();
  }
  out.append(text.substr(position));
  return out;
}

}  // namespace

std::string json_string_content(std::string_view text) {
  const std::string quoted = json_text(Json(std::string(text)));
  return quoted.substr(1, quoted.size() - 2);
}

static_assert(kPrelude.find("@BODY@") != std::string_view::npos,
              "the model's code goes where the prelude says");

ProgramText::ProgramText(const Json& methods, const Json& rules, std::int64_t console_log_bytes,
                         std::int64_t final_result_bytes, bool model_code) {
  constexpr std::string_view kBody = "@BODY@";
  const std::size_t body = kPrelude.find(kBody);
  const std::string prelude_head = fill(
      kPrelude.substr(0, body), {{"@RULES@", json_text(rules)},
                                 {"@METHODS@", json_text(methods)},
                                 {"@LOG_BYTES@", std::to_string(console_log_bytes)},
                                 {"@MARKER@", json_text(Json(std::string(kLogsTruncatedMarker)))},
                                 {"@FINAL_BYTES@", std::to_string(final_result_bytes)},
                                 {"@COMPILE@", model_code ? "compileCode" : "new AsyncFunction"}});
  const std::string prelude_tail = std::string(kPrelude.substr(body + kBody.size())) +
                                   "return { main, checked, envelope, caught };\n";
  // Escaping is character by character, so the string's content is its parts' contents joined.
  // `Function` is looked up before anything of the program has run. The prelude compiled from
  // the string is synchronous and hands its four functions back; the epilogue stays in the
  // program's own async arrow, which returns the prototype-less envelope itself: no promise a
  // program could reach (through Promise.prototype.then) stands between the envelope and the
  // program's result.
  before_ =
      "async (input, tools) => {\n"
      "  'use strict';\n"
      "  const { main, checked, envelope, caught } = (new Function('input', 'tools', \"" +
      json_string_content("'use strict';\n" + prelude_head);
  after_ =
      json_string_content(prelude_tail) + "\"))(input, tools);\n" + std::string(kEpilogue) + "}";
}

std::string ProgramText::source(std::string_view function_body) const {
  return before_ + json_string_content(json_text(Json(std::string(function_body)))) + after_;
}

}  // namespace codemode::mcp
