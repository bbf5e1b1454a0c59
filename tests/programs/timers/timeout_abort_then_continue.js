// expect: {"result":["quick done","slow timed out",325]}
async function timed(label, ms, limit) {
  return Promise.race([
    new Promise((resolve) => setTimeout(() => resolve(`${label} done`), ms)),
    new Promise((resolve) => setTimeout(() => resolve(`${label} timed out`), limit)),
  ]);
}
const results = [];
results.push(await timed("quick", 10, 200));
results.push(await timed("slow", 300, 30));
const { cents } = await codemode.crm.price({ sku: "SPROCKET" });
results.push(cents);
return results;
