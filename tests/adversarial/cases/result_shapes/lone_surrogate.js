// A lone surrogate has no UTF-8 form, so the UTF-8 JSON boundary refuses it, whatever escape
// JSON.stringify wrote for it.
// expect: failed INVALID_OUTPUT output_lone_surrogate
(input, tools) => 'a\uD800b'
