// The QuickJS baseline of codemode-bench: one Node.js process per execution, as the TypeScript
// Code Mode library runs its sandbox (run_quickjs.mjs). codemode-bench starts this script, writes
// one request on stdin, {source, input, memoryBytes, cpuMillis}, and reads one line on stdout:
// {status: "succeeded", output, callSpanMicros} or {status: "failed", error}.
// callSpanMicros: (last tool call's arrival - first's) / (calls - 1), the amortized time from one
// host call to the next, as codemode-bench measures it at codemode's broker.
import { readFileSync } from 'node:fs';
import { runQuickJs } from './run_quickjs.mjs';

const request = JSON.parse(readFileSync(0, 'utf8'));
runQuickJs(request).then(
  (answer) => process.stdout.write(JSON.stringify(answer) + '\n'),
  (error) => process.stdout.write(JSON.stringify({ status: 'failed', error: String(error) }) + '\n'),
);
