// expect: {"result":"failed with tool_failed"}
let message: string;
try {
  await codemode.crm.listOrders({ customerId: "c42" });
  message = "found";
} catch (err: unknown) {
  const e = err as { code?: string; message?: string };
  message = `failed with ${e.code ?? "no code"}`;
}
return message;
