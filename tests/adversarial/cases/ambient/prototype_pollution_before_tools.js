// Polluting Object, Array, JSON and Promise before calling a tool changes nothing about the call:
// the bridge uses none of the program's mutable intrinsics.
// expect: succeeded
// output: {"status": "succeeded", "output": {"sku": "A-1", "list": [1, 2]}}
// tool-calls: 1
async (input, tools) => {
  const call = tools.call;
  JSON.stringify = () => '{"forged":true}';
  JSON.parse = () => ({ forged: true });
  Array.prototype.push = () => { throw new Error('push'); };
  Array.prototype[Symbol.iterator] = function* () { yield 'forged'; };
  Object.prototype.then = undefined;
  Object.defineProperty(Object.prototype, 'status', { set() { throw new Error('set'); }, configurable: true });
  Promise.prototype.then = function () { throw new Error('then'); };
  Promise.resolve = () => { throw new Error('resolve'); };
  Object.freeze = (o) => o;
  const result = await call('test.echo', { sku: 'A-1', list: [1, 2] });
  delete Object.prototype.status;
  return { status: result.status, output: result.output };
}
