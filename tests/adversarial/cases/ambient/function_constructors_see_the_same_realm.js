// Every function constructor reached through a constructor chain compiles code in the same empty
// realm: Function, AsyncFunction, GeneratorFunction and AsyncGeneratorFunction.
// expect: succeeded
// output: ["undefined", "undefined", "undefined", "undefined", "undefined"]
async (input, tools) => {
  const AsyncFunction = (async () => {}).constructor;
  const GeneratorFunction = function* () {}.constructor;
  const AsyncGeneratorFunction = async function* () {}.constructor;
  return [
    (() => {}).constructor.constructor('return typeof require')(),
    Function('return typeof Function("return this")().process')(),
    await AsyncFunction('return typeof fetch')(),
    GeneratorFunction('yield typeof Deno')().next().value,
    (await AsyncGeneratorFunction('yield typeof os')().next()).value,
  ];
}
