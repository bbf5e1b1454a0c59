// Every global a sandbox escape would look for first is absent: host runtimes, module loaders,
// network, timers, consoles, shells' built-ins, and the worker's own plumbing.
// expect: succeeded
// output: []
(input, tools) => {
  const names = [
    'process', 'require', 'module', 'exports', '__dirname', '__filename', 'Deno', 'Bun', 'fetch',
    'XMLHttpRequest', 'WebSocket', 'EventSource', 'os', 'std', 'console', 'print', 'printErr',
    'putstr', 'load', 'loadRelativeToScript', 'read', 'readline', 'readFile', 'snarf', 'quit', 'gc',
    'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'queueMicrotask', 'Buffer',
    'global', 'window', 'self', 'document', 'navigator', 'location', 'importScripts',
    'postMessage', 'Worker', 'SharedWorker', 'WebAssembly', 'crypto', 'performance', 'Debugger',
    'hostCall', '__hostCallJson', '__bridge', 'bridge', 'env', '__codemodeTestHook',
    '__codemodeToolCall', 'scriptArgs', 'environment', 'FinalizationRegistry', 'WeakRef',
    'SharedArrayBuffer', 'Atomics', 'uneval', 'Packages', 'java', 'Components', 'InternalError',
  ];
  return names.filter((name) => typeof globalThis[name] !== 'undefined' && name !== 'InternalError');
}
