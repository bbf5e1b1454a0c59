// Deep recursion through native frames (Array.prototype.map, Reflect.apply, JSON.parse
// revivers) is a catchable InternalError.
// expect: succeeded
// output: "InternalError"
(input, tools) => { const r = (n) => [n].map((m) => Reflect.apply(r, null, [m + 1]))[0]; try { r(0); return 'no overflow'; } catch (e) { return e.name; } }
