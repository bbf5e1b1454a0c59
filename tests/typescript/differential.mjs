// The type eraser against the TypeScript compiler. For each program in corpus/, both the eraser's
// output (erase_types_tool) and ts.transpileModule's run in a fresh node:vm context, and must
// compute the same value (as JSON). The eraser's output must also keep the source's length and
// every line break where it was.
//
// Usage: node differential.mjs ERASE_TYPES_TOOL
// Exits 77 (skipped) when the pinned typescript package is not installed (scripts/install-deps).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const here = dirname(fileURLToPath(import.meta.url));
const tool = process.argv[2];
if (!tool) {
  console.error("usage: node differential.mjs ERASE_TYPES_TOOL");
  process.exit(2);
}
let ts;
try {
  ts = createRequire(join(here, "package.json"))("typescript");
} catch {
  console.log("typescript_differential skipped: tests/typescript/node_modules has no typescript " +
              "(run scripts/install-deps)");
  process.exit(77);
}

// What a program computes: its completion value, called with a fixed input when it is a function
// expression, awaited when it is a promise.
async function run(code, filename) {
  const context = vm.createContext({});
  let value = new vm.Script(code, { filename }).runInContext(context, { timeout: 2000 });
  if (typeof value === "function") value = value({ n: 3, items: ["a", "b"] }, {});
  if (value !== null && typeof value === "object" && typeof value.then === "function") {
    value = await value;
  }
  return value === undefined ? "undefined" : JSON.stringify(value);
}

function lineBreaks(bytes) {
  const offsets = [];
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a || bytes[i] === 0x0d) offsets.push(i);
    if (bytes[i] === 0xe2 && bytes[i + 1] === 0x80 && (bytes[i + 2] === 0xa8 || bytes[i + 2] === 0xa9)) {
      offsets.push(i);
    }
  }
  return offsets.join(",");
}

const corpus = join(here, "corpus");
const files = readdirSync(corpus).filter((f) => f.endsWith(".ts")).sort();
let failures = 0;
for (const file of files) {
  const path = join(corpus, file);
  const source = readFileSync(path);
  const fail = (why) => {
    failures++;
    console.log(`FAIL ${file}: ${why}`);
  };
  let erased;
  try {
    erased = execFileSync(tool, [path], { stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    fail(`the eraser refused it: ${String(error.stderr).trim()}`);
    continue;
  }
  if (erased.length !== source.length) fail(`length ${erased.length} != ${source.length}`);
  if (lineBreaks(erased) !== lineBreaks(source)) fail("line breaks moved");
  const compiled = ts.transpileModule(source.toString("utf8"), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    reportDiagnostics: true,
    fileName: file,
  });
  if (compiled.diagnostics.length > 0) {
    fail(`TypeScript reports: ${ts.flattenDiagnosticMessageText(compiled.diagnostics[0].messageText, " ")}`);
    continue;
  }
  // A file with (type-only) exports is a module, so TypeScript keeps it one with `export {};`.
  const reference = compiled.outputText.replace(/^export \{\};\s*$/m, "");
  let expected, actual;
  try {
    expected = await run(reference, `${file} (tsc)`);
  } catch (error) {
    fail(`TypeScript's output throws: ${error}`);
    continue;
  }
  try {
    actual = await run(erased.toString("utf8"), `${file} (erased)`);
  } catch (error) {
    fail(`the erased program throws: ${error}`);
    continue;
  }
  if (actual !== expected) fail(`computes ${actual}, TypeScript's output ${expected}`);
}
console.log(`typescript_differential: ${files.length - failures} of ${files.length} programs agree ` +
            `with TypeScript ${ts.version}`);
process.exit(failures === 0 ? 0 : 1);
