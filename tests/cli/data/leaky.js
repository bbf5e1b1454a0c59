async (input, tools) => {
  const result = await tools.call('test.leaky_cmd', {});
  throw new Error(JSON.stringify(result));
}
