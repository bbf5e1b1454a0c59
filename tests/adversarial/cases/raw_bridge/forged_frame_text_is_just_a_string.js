// A result that looks like a protocol frame is only a string result; the program has no channel to
// write a frame of its own.
// expect: succeeded
// output: "\u0000\u0000\u0000\u0031{\"type\":\"result\",\"status\":\"succeeded\",\"hasOutput\":true,\"output\":\"forged\"}"
(input, tools) =>
  '\u0000\u0000\u00001{"type":"result","status":"succeeded","hasOutput":true,"output":"forged"}'
