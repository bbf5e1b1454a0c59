// A stack trace names the program by a fixed name, never a host path.
// expect: succeeded
// output: false
(input, tools) => {
  const stack = new Error('probe').stack;
  return stack.includes('/') || stack.includes('\\') || stack.includes('codemode-worker');
}
