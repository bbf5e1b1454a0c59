// expect: {"result":"cleared"}
const handle = setTimeout(() => {}, 10);
const interval = setInterval(() => {}, 1000);
clearInterval(interval);
clearTimeout(handle);
clearTimeout(undefined);
clearInterval(12345);
return "cleared";
