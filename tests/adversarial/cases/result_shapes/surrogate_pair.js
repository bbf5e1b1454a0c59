// A well-formed surrogate pair is an ordinary character.
// expect: succeeded
// output: "\uD83D\uDE00"
(input, tools) => '\uD83D\uDE00'
