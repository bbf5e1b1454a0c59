// One value more than 100,000 is refused.
// expect: failed INVALID_OUTPUT output_values_limit
// limits: maxOutputBytes=1048576
(input, tools) => new Array(100000).fill(0)
