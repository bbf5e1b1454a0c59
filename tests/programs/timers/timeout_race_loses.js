// expect: {"result":"caught timeout"}
const slow = new Promise((resolve) => setTimeout(() => resolve("slow"), 400));
const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), 50));
try {
  await Promise.race([slow, timeout]);
  return "no timeout";
} catch (e) {
  return `caught ${e.message}`;
}
