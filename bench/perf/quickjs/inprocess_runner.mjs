// The in-process QuickJS baseline of codemode-bench: one long-lived Node.js process (started once
// per bench run) runs every execution in a fresh QuickJS runtime and context (run_quickjs.mjs),
// with no process per execution and no isolation between executions beyond QuickJS's own. The
// requests and answers are persistent_runner.mjs's. QuickJS runs on Node's one main thread, so two
// requests at once interleave at their tool calls' awaits but never compute in parallel.
import { getQuickJS } from 'quickjs-emscripten';
import { serve } from '../persistent_runner.mjs';
import { runQuickJs } from './run_quickjs.mjs';

await getQuickJS();  // load the WebAssembly module before saying ready
serve(runQuickJs);
