// A string doubled until something gives: the engine's length limit is a catchable RangeError
// that the program catches, so memory runs out first or the program returns.
// expect: failed LIMIT_EXCEEDED memory_limit
// limits: memoryBytes=16777216 cpuMillis=10000
(input, tools) => { let s = 'x'; const held = []; for (;;) { try { s = s + s; held.push(s.slice(1)); } catch (e) { held.push(e); } } }
