// expect: {"result":["micro 1","after await","micro 2","macro"]}
const log = [];
queueMicrotask(() => log.push("micro 1"));
setTimeout(() => log.push("macro"), 0);
await null;
log.push("after await");
queueMicrotask(() => log.push("micro 2"));
await new Promise((r) => setTimeout(r, 20));
return log;
