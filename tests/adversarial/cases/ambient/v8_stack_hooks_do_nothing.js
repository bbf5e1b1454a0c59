// Error.prepareStackTrace and Error.captureStackTrace are V8 hooks: here the first is an inert
// property and the second is absent, so neither reaches call-site objects.
// expect: succeeded
// output: ["string", "undefined"]
(input, tools) => {
  Error.prepareStackTrace = (error, frames) => frames.map((frame) => frame.getThis());
  return [typeof new Error('probe').stack, typeof Error.captureStackTrace];
}
