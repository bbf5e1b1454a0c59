// The QuickJS baseline of codemode-bench: one Node.js process per execution, as the TypeScript
// Code Mode library runs its sandbox (QuickJS compiled to WebAssembly by quickjs-emscripten, in the
// host's Node process, tools as host functions). codemode-bench starts this script, writes one
// request on stdin, {source, input, memoryBytes, cpuMillis}, and reads one line on stdout:
// {status: "succeeded", output, callSpanMicros} or {status: "failed", error}.
// callSpanMicros: (last tool call's arrival - first's) / (calls - 1), the amortized time from one
// host call to the next, as codemode-bench measures it at codemode's broker.
import { readFileSync } from 'node:fs';
import { getQuickJS, shouldInterruptAfterDeadline } from 'quickjs-emscripten';

// The bench's tools, the same answers as codemode-bench's in-process C++ tools.
const kTools = {
  'catalog.price': (input) => ({ cents: input.sku.length * 100 }),
  'number.double': (input) => ({ value: input.value * 2 }),
};

// The guest's `tools.call(id, input)`: JSON text crosses the boundary, as in codemode's frames.
const kGuestPrelude = `globalThis.tools = Object.freeze({
  call: (id, input) => __hostCall(id, JSON.stringify(input)).then((text) => JSON.parse(text)),
});`;

function defineHostCall(vm, runtime, arrivals) {
  const hostCall = vm.newFunction('__hostCall', (idHandle, inputHandle) => {
    arrivals.push(process.hrtime.bigint());
    const id = vm.getString(idHandle);
    const input = JSON.parse(vm.getString(inputHandle));
    const deferred = vm.newPromise();
    queueMicrotask(() => {
      const tool = kTools[id];
      const answer = tool
        ? { status: 'succeeded', output: tool(input) }
        : { status: 'failed', error: { code: 'PERMISSION_DENIED', message: 'unknown tool' } };
      const text = vm.newString(JSON.stringify(answer));
      deferred.resolve(text);
      text.dispose();
      runtime.executePendingJobs();
    });
    return deferred.handle;
  });
  vm.setProp(vm.global, '__hostCall', hostCall);
  hostCall.dispose();
}

function callSpanMicros(arrivals) {
  if (arrivals.length < 2) return null;
  return Number(arrivals[arrivals.length - 1] - arrivals[0]) / 1000 / (arrivals.length - 1);
}

async function run(request) {
  const QuickJS = await getQuickJS();
  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(request.memoryBytes);
  runtime.setMaxStackSize(1 << 20);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + request.cpuMillis));
  const vm = runtime.newContext();
  const arrivals = [];
  defineHostCall(vm, runtime, arrivals);
  vm.unwrapResult(vm.evalCode(kGuestPrelude)).dispose();
  const inputText = vm.newString(JSON.stringify(request.input));
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

const request = JSON.parse(readFileSync(0, 'utf8'));
run(request).then(
  (answer) => process.stdout.write(JSON.stringify(answer) + '\n'),
  (error) => process.stdout.write(JSON.stringify({ status: 'failed', error: String(error) }) + '\n'),
);
