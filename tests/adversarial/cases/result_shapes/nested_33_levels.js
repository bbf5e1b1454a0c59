// Thirty-three levels is one too many.
// expect: failed INVALID_OUTPUT output_depth_limit
(input, tools) => { let v = 0; for (let i = 0; i < 33; i++) v = [v]; return v; }
