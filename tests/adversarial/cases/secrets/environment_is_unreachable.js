// The host process's environment holds the token: nothing in the sandbox can name or read an
// environment, so the program finds nothing to return.
// expect: succeeded
// output: "undefined,undefined,undefined,undefined,undefined,undefined"
(input, tools) => [typeof process, typeof Deno, typeof std, typeof os, typeof environment, typeof getenv].join()
