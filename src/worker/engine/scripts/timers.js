// The model profile's timers: setTimeout, clearTimeout, setInterval, clearInterval and
// queueMicrotask, over two natives of the worker: natives.schedule(id, delayMillis) asks to be
// woken for `id` once the delay has passed, natives.cancel(id) withdraws it. The function returned
// here is what the worker calls for each timer that is due, in due order. A timer cannot outlive
// the program: the execution ends when the program's result is settled, and a timer due after the
// wall-time limit never fires (docs/programs.md, "Timers").
(function installTimers(global, natives) {
  'use strict';
  const schedule = natives.schedule;
  const cancel = natives.cancel;
  const apply = Reflect.apply;
  const toNumber = Number;
  const isFunction = (value) => typeof value === 'function';
  const resolved = Promise.resolve();
  const then = Function.prototype.call.bind(Promise.prototype.then);
  const MapClass = Map;
  const mapGet = Function.prototype.call.bind(Map.prototype.get);
  const mapSet = Function.prototype.call.bind(Map.prototype.set);
  const mapDelete = Function.prototype.call.bind(Map.prototype.delete);
  const TypeErrorClass = TypeError;
  const timers = new MapClass();
  let lastId = 0;

  // As Node.js does: a delay that is not a number of at least 1 ms, or is over 2^31 - 1 ms, is
  // 1 ms.
  const delayOf = (delay) => {
    const millis = toNumber(delay);
    return millis >= 1 && millis <= 2147483647 ? Math.trunc(millis) : 1;
  };
  const start = (callback, delay, args, repeat) => {
    if (!isFunction(callback)) {
      throw new TypeErrorClass('The "callback" argument must be of type function.');
    }
    const id = ++lastId;
    const millis = delayOf(delay);
    mapSet(timers, id, { callback, args, repeat: repeat ? millis : 0 });
    schedule(id, millis);
    return id;
  };
  const stop = (id) => {
    const key = toNumber(id);
    if (mapDelete(timers, key)) cancel(key);
  };
  const methods = {
    setTimeout(callback, delay = 0, ...args) { return start(callback, delay, args, false); },
    setInterval(callback, delay = 0, ...args) { return start(callback, delay, args, true); },
    clearTimeout(id) { stop(id); },
    clearInterval(id) { stop(id); },
    queueMicrotask(callback) {
      if (!isFunction(callback)) {
        throw new TypeErrorClass('The "callback" argument must be of type function.');
      }
      then(resolved, () => { apply(callback, undefined, []); });
    },
  };
  for (const name of ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval',
                      'queueMicrotask']) {
    Object.defineProperty(global, name, { value: methods[name], writable: true, enumerable: true,
                                          configurable: true });
  }
  // Called by the worker for a due timer. A callback that throws ends the program with that
  // error, as an uncaught exception in a timer ends a Node.js process.
  return function fire(id) {
    const timer = mapGet(timers, id);
    if (timer === undefined) return;
    if (timer.repeat > 0) schedule(id, timer.repeat); else mapDelete(timers, id);
    apply(timer.callback, undefined, timer.args);
  };
})
