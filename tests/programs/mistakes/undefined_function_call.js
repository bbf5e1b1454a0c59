// expect: {"error": {"code": "code_rejected", "name": "ReferenceError", "line": 2, "column": 17, "messageIncludes": "formatMoney is not defined"}}
const { cents } = await codemode.crm.price({ sku: "WIDGET" });
return { price: formatMoney(cents) };
