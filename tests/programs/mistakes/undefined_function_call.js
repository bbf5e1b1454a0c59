// note: the column is SpiderMonkey 102's: where the expression being evaluated starts.
// expect: {"error": {"code": "code_rejected", "name": "ReferenceError", "line": 2, "column": 10, "messageIncludes": "formatMoney is not defined"}}
const { cents } = await codemode.crm.price({ sku: "WIDGET" });
return { price: formatMoney(cents) };
