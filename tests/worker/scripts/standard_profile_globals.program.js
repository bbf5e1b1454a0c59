// The standard profile keeps the library specification's exact globals: none of the model
// profile's (docs/programs.md, "Two profiles"); the ECMAScript library the engine predates is
// there in both.
() => {
  const failures = [];
  for (const name of ['console', 'setTimeout', 'setInterval', 'clearTimeout', 'clearInterval',
                      'queueMicrotask', 'fetch', 'TextEncoder', 'TextDecoder', 'atob', 'btoa',
                      'URL', 'URLSearchParams', 'structuredClone', 'crypto', 'DOMException',
                      '__codemodeCompileCode']) {
    if (typeof globalThis[name] !== 'undefined') failures.push(`${name} is defined`);
  }
  if (typeof [].findLast !== 'function') failures.push('Array.prototype.findLast is missing');
  if (typeof Iterator !== 'function') failures.push('Iterator is missing');
  return failures;
}
