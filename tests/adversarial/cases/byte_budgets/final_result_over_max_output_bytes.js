// A result one byte over maxOutputBytes is refused whole; nothing of it is returned.
// expect: failed INVALID_OUTPUT max_output_bytes
(input, tools) => 'x'.repeat(65536 - 2 + 1)
