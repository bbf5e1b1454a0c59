// A storm of promise jobs that never ends is stopped by the CPU limit, before it fills memory.
// expect: failed LIMIT_EXCEEDED cpu_limit
// limits: cpuMillis=200
(input, tools) => {
  const storm = () => Promise.resolve().then(storm).then(storm);
  storm();
  return new Promise(() => {});
}
