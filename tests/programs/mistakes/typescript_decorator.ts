// expect: {"error": {"code": "code_rejected", "name": "SyntaxError", "line": 6, "messageMatches": "decorator"}}
function logged(target: any, context: any) {
  return target;
}

class Report {
  @logged
  run() {
    return 1;
  }
}
return new Report().run();
