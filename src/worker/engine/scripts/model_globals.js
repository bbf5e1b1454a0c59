(function installModelGlobals(global, natives) {
  'use strict';
  const log = natives.log;
  const render = (value) => {
    if (typeof value === 'string') return value;
    try {
      const text = JSON.stringify(value);
      if (typeof text === 'string') return text;
    } catch (_) {}
    try { return String(value); } catch (_) { return '[unrenderable]'; }
  };
  const emit = (prefix) => function (...values) {
    try { log(prefix + values.map(render).join(' ')); } catch (_) {}
  };
  const console = {
    log: emit(''), info: emit('[info] '), warn: emit('[warn] '), error: emit('[error] '),
    debug: emit('[debug] '),
  };
  Object.defineProperty(global, 'console',
                        { value: console, writable: true, enumerable: false, configurable: true });
})
