// A result of exactly maxOutputBytes (64 KiB, quotes included) is returned.
// expect: succeeded
(input, tools) => 'x'.repeat(65536 - 2)
