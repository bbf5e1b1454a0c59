// expect: {"result":"invalid_arguments"}
try {
  await codemode.crm.price({ id: "WIDGET" });
  return "accepted";
} catch (e) {
  return e.code;
}
