// expect: {"result":"logged"}
// expect: {"logs":["plain","[info] an info","[warn] a warning","[error] an error","[debug] a debug line"]}
console.log("plain");
console.info("an info");
console.warn("a warning");
console.error("an error");
console.debug("a debug line");
return "logged";
