// An array of 99,999 values is 100,000 JSON values in all: the most a result may have.
// expect: succeeded
// limits: maxOutputBytes=1048576 cpuMillis=10000 wallTimeMillis=30000
(input, tools) => new Array(99999).fill(0)
