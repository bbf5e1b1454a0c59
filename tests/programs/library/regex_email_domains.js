// expect: {"result":{"valid":8,"users":["ada","grace","alan","katherine","edsger","barbara"]}}
const { customers } = await codemode.crm.listCustomers({});
const emailRe = /^([^@\s]+)@([^@\s]+\.[a-z]{2,})$/i;
const valid = customers.filter((c) => emailRe.test(c.email));
const users = valid.map((c) => c.email.replace(/@.*$/, "")).filter((u) => /(?<=^[a-k]).*/.test(u));
return { valid: valid.length, users };
