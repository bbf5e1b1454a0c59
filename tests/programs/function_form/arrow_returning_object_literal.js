// expect: {"result":{"gold":3,"ok":true}}
async () => ({ gold: (await codemode.crm.listCustomers({ tier: "gold" })).customers.length, ok: true })
