// expect: {"result":["sync","microtask","queued","t0","t10","t100"]}
const events = [];
const done = new Promise((resolve) => {
  setTimeout(() => { events.push("t100"); resolve(); }, 100);
  setTimeout(() => events.push("t10"), 10);
  setTimeout(() => events.push("t0"), 0);
  Promise.resolve().then(() => events.push("microtask"));
  queueMicrotask(() => events.push("queued"));
  events.push("sync");
});
await done;
return events;
