// A native sort of a huge array is interruptible.
// expect: failed LIMIT_EXCEEDED cpu_limit
// limits: cpuMillis=100 memoryBytes=268435456
(input, tools) => { const a = []; for (let i = 0; i < 3e6; i++) a.push((i * 7919) % 1000003); a.sort((x, y) => x - y); a.sort((x, y) => y - x); a.sort((x, y) => x - y); return a.length; }
