// What a program sees: standard ECMAScript plus `tools`, nothing of the host.
#include <gtest/gtest.h>

#include "worker/worker_process.h"

namespace codemode::testing {
namespace {

TEST(WorkerGlobalsTest, HostAndNonStandardGlobalsAreAbsent) {
  Execution run = execute(
      "() => ['process', 'require', 'console', 'setTimeout', 'setInterval', 'fetch', "
      "'WebAssembly', 'SharedArrayBuffer', 'Atomics', 'Deno', 'Bun', 'InternalError', 'escape', "
      "'unescape', 'uneval', 'WeakRef', 'FinalizationRegistry', 'print', 'Debugger', "
      "'ReadableStream', '__codemodeTestHook'].filter(n => typeof globalThis[n] !== 'undefined')");
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output(), Json::array());
}

TEST(WorkerGlobalsTest, GlobalNamesAreExactlyStandardEcmaScript) {
  Execution run = execute("() => Object.getOwnPropertyNames(globalThis).sort()");
  ASSERT_TRUE(run.succeeded());
  const Json expected = {"AggregateError",
                         "Array",
                         "ArrayBuffer",
                         "BigInt",
                         "BigInt64Array",
                         "BigUint64Array",
                         "Boolean",
                         "DataView",
                         "Date",
                         "Error",
                         "EvalError",
                         "Float32Array",
                         "Float64Array",
                         "Function",
                         "Infinity",
                         "Int16Array",
                         "Int32Array",
                         "Int8Array",
                         "Intl",
                         "Iterator",  // ECMAScript 2025's iterator helpers (standard_library.js)
                         "JSON",
                         "Map",
                         "Math",
                         "NaN",
                         "Number",
                         "Object",
                         "Promise",
                         "Proxy",
                         "RangeError",
                         "ReferenceError",
                         "Reflect",
                         "RegExp",
                         "Set",
                         "String",
                         "Symbol",
                         "SyntaxError",
                         "TypeError",
                         "URIError",
                         "Uint16Array",
                         "Uint32Array",
                         "Uint8Array",
                         "Uint8ClampedArray",
                         "WeakMap",
                         "WeakSet",
                         "decodeURI",
                         "decodeURIComponent",
                         "encodeURI",
                         "encodeURIComponent",
                         "eval",
                         "globalThis",
                         "isFinite",
                         "isNaN",
                         "parseFloat",
                         "parseInt",
                         "undefined"};
  EXPECT_EQ(run.output(), expected);
}

TEST(WorkerGlobalsTest, ReflectParseIsNotExposed) {
  Execution run = execute("() => typeof Reflect.parse");
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output(), "undefined");
}

TEST(WorkerGlobalsTest, DynamicImportFails) {
  Execution run = execute(
      "async () => { try { await import('fs'); return 'imported'; } catch (e) { return 'failed'; } "
      "}");
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output(), "failed");
}

TEST(WorkerGlobalsTest, ToSourceIsOff) {
  Execution run =
      execute("() => [typeof Object.prototype.toSource, typeof Function.prototype.toSource]");
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output(), (Json{"undefined", "undefined"}));
}

// Runs under the system-call filter: nothing here may open a file (the worker warmed up the
// time zone before confinement; the rest is ICU data inside the engine).
TEST(WorkerGlobalsTest, DateIntlAndRandomWorkUnderConfinement) {
  Execution run = execute(
      "() => [new Date(0).toISOString(), new Date(0).toString().length > 0, "
      "new Date(0).toLocaleString('en-US', {timeZone: 'UTC'}), "
      "new Date(2020, 1, 1).getHours(), Date.now() > 1.6e12, "
      "new Intl.DateTimeFormat('de-DE', {timeZone: 'America/New_York'}).format(0).length > 0, "
      "Intl.DateTimeFormat().resolvedOptions().timeZone.length > 0, "
      "new Intl.NumberFormat('en-US').format(1234.5), 'a'.localeCompare('b'), "
      "new Intl.Collator('de').compare('ä', 'z'), new Date(0).toLocaleDateString().length > 0, "
      "Math.random() !== Math.random(), 'İ'.toLocaleLowerCase('tr').length]");
  ASSERT_TRUE(run.succeeded()) << run.describe();
  EXPECT_EQ(run.output(), (Json{"1970-01-01T00:00:00.000Z", true, "1/1/1970, 12:00:00 AM", 0, true,
                                true, true, "1,234.5", -1, -1, true, true, 1}));
}

TEST(WorkerGlobalsTest, EvalAndFunctionStayInsideTheRealm) {
  Execution run = execute("() => [eval('1 + 1'), Function('return typeof tools')()]");
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output(), (Json{2, "undefined"}));
}

}  // namespace
}  // namespace codemode::testing
