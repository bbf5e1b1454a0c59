// expect: {"error": {"code": "code_rejected", "name": "ReferenceError", "line": 1, "column": 16, "messageMatches": "window is not defined.{8,}"}}
const origin = window.location.origin;
return origin;
