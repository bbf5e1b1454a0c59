// Searching every own property and symbol of the global and of tools.call finds no bridge: no
// function whose name mentions the host, and no symbol-keyed property.
// expect: succeeded
// output: {"symbols": 0, "suspects": [], "callKeys": ["length", "name"]}
(input, tools) => {
  const suspects = Reflect.ownKeys(globalThis)
    .filter((key) => typeof key === 'string')
    .filter((key) => /bridge|host|codemode|native|ipc|frame|worker/i.test(key));
  return {
    symbols: Object.getOwnPropertySymbols(globalThis).length,
    suspects,
    callKeys: Reflect.ownKeys(tools.call).sort(),
  };
}
