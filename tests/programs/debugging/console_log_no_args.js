// expect: {"result":1}
// expect: {"logs":["","","after blank lines"]}
console.log();
console.log("");
console.log("after blank lines");
return 1;
