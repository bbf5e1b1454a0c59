// One execution in a fresh QuickJS runtime and context (npm quickjs-emscripten, QuickJS compiled
// to WebAssembly, in this Node.js process), as the TypeScript Code Mode library runs its sandbox:
// the workload's source, with its tools as host functions that resolve a QuickJS promise, JSON
// text crossing the boundary as in codemode's frames. Shared by runner.mjs (one Node.js process
// per execution) and inprocess_runner.mjs (one long-lived process for every execution), so the two
// QuickJS baselines run the same code and differ only in the process around it.
// The answer: {status: "succeeded", output, callSpanMicros} or {status: "failed", error}.
import { getQuickJS, shouldInterruptAfterDeadline } from 'quickjs-emscripten';
import { answerToolCall, callSpanMicros } from '../bench_tools.mjs';

// The guest's `tools.call(id, input)`.
const kGuestPrelude = `globalThis.tools = Object.freeze({
  call: (id, input) => __hostCall(id, JSON.stringify(input)).then((text) => JSON.parse(text)),
});`;

// Answers each call in a microtask, as an asynchronous host tool would. `pending` holds the
// promises not yet resolved, so a failed execution can release them before its context goes.
function defineHostCall(vm, runtime, arrivals, pending) {
  const hostCall = vm.newFunction('__hostCall', (idHandle, inputHandle) => {
    arrivals.push(process.hrtime.bigint());
    const id = vm.getString(idHandle);
    const input = JSON.parse(vm.getString(inputHandle));
    const deferred = vm.newPromise();
    pending.add(deferred);
    queueMicrotask(() => {
      if (!pending.delete(deferred)) return;  // the execution ended first
      const text = vm.newString(JSON.stringify(answerToolCall(id, input)));
      deferred.resolve(text);
      text.dispose();
      runtime.executePendingJobs();
    });
    return deferred.handle;  // the library duplicates and releases the returned handle
  });
  vm.setProp(vm.global, '__hostCall', hostCall);
  hostCall.dispose();
}

async function evaluate(vm, runtime, request, arrivals) {
  vm.unwrapResult(vm.evalCode(kGuestPrelude)).dispose();
  const inputText = vm.newString(JSON.stringify(request.input ?? null));
  vm.setProp(vm.global, '__input', inputText);
  inputText.dispose();
  const body = `(async () => JSON.stringify(await (${request.source})(JSON.parse(__input), tools)))()`;
  const promise = vm.unwrapResult(vm.evalCode(body));
  const settled = vm.resolvePromise(promise);
  promise.dispose();
  runtime.executePendingJobs();
  const result = await settled;
  if (result.error) {
    const error = vm.dump(result.error);
    result.error.dispose();
    return { status: 'failed', error: String(error && error.message ? error.message : error) };
  }
  const output = JSON.parse(vm.getString(result.value));
  result.value.dispose();
  return { status: 'succeeded', output, callSpanMicros: callSpanMicros(arrivals) };
}

export async function runQuickJs(request) {
  const QuickJS = await getQuickJS();  // loaded once per process, then cached by the package
  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(request.memoryBytes);
  runtime.setMaxStackSize(1 << 20);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + request.cpuMillis));
  const vm = runtime.newContext();
  const pending = new Set();
  try {
    const arrivals = [];
    defineHostCall(vm, runtime, arrivals, pending);
    return await evaluate(vm, runtime, request, arrivals);
  } finally {
    for (const deferred of pending) deferred.dispose();
    pending.clear();
    vm.dispose();
    runtime.dispose();
  }
}
