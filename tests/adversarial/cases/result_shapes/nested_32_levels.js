// Thirty-two levels of nesting is the most a result may have.
// expect: succeeded
(input, tools) => { let v = 0; for (let i = 0; i < 32; i++) v = [v]; return v; }
