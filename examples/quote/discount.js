// Phase 2 of catalog.quote: records the quote through quote.discount, a tool with write effects.
// It runs only after a person approved this exact program with this exact input.
async (input, tools) => {
  const quote = await tools.call('quote.discount', input);
  if (quote.status !== 'succeeded') throw new Error('the quote was not recorded');
  return quote.output;
}
