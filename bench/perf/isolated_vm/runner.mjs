// The isolated-vm baseline of codemode-bench: one long-lived Node.js process (started once per
// bench run) that runs each execution in a fresh V8 isolate, as UTCP's code-mode runs programs
// with isolated-vm. Per request (persistent_runner.mjs's protocol): a new ivm.Isolate with the
// workload's memory limit, a new context, the tools as one host function, the workload's source
// run to its result, then the isolate is disposed. The isolate runs on isolated-vm's own thread
// (the async API), so two requests run at once on two threads while this process's main thread
// answers their tool calls.
//
// A tool call is `hostCall.applySyncPromise(...)`: the guest's thread waits while the host's
// (async) tool function runs on Node's main thread, which is how UTCP's code-mode gives programs
// tools that look synchronous; tools.call wraps it in a promise so the workloads' `await` works.
// JSON text crosses the boundary both ways, as in codemode's frames.
import ivm from 'isolated-vm';
import { answerToolCall, callSpanMicros } from '../bench_tools.mjs';
import { serve } from '../persistent_runner.mjs';

const kMebibyte = 1024 * 1024;

// Takes the host function off the global object so the program sees only `tools`.
const kGuestPrelude = `(() => {
  const hostCall = globalThis.__hostCall;
  delete globalThis.__hostCall;
  globalThis.tools = Object.freeze({
    call: async (id, input) =>
      JSON.parse(hostCall.applySyncPromise(undefined, [id, JSON.stringify(input)])),
  });
})();`;

async function runInIsolate(isolate, request) {
  const context = await isolate.createContext();
  const arrivals = [];
  await context.global.set(
    '__hostCall',
    new ivm.Reference(async (id, inputText) => {
      arrivals.push(process.hrtime.bigint());
      return JSON.stringify(answerToolCall(id, JSON.parse(inputText)));
    }),
  );
  await context.global.set('__input', JSON.stringify(request.input ?? null));
  await context.eval(kGuestPrelude);
  // The same wrapping as the QuickJS runner: the program's value comes back as JSON text.
  const body = `(async () => JSON.stringify(await (${request.source})(JSON.parse(__input), tools)))()`;
  const text = await context.eval(body, { promise: true, timeout: request.cpuMillis });
  return { status: 'succeeded', output: JSON.parse(text), callSpanMicros: callSpanMicros(arrivals) };
}

async function run(request) {
  const isolate = new ivm.Isolate({
    memoryLimit: Math.max(8, Math.floor(request.memoryBytes / kMebibyte)),
  });
  try {
    return await runInIsolate(isolate, request);
  } finally {
    if (!isolate.isDisposed) isolate.dispose();
  }
}

serve(run);
