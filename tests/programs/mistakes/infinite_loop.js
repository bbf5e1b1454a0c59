// expect: {"error": {"code": "deadline_exceeded"}}
let i = 0;
while (true) {
  i++;
}
return i;
