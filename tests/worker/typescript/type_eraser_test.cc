#include "worker/typescript/type_eraser.h"

#include <chrono>
#include <string>
#include <string_view>
#include <variant>

#include <gtest/gtest.h>

#include "support/timing.h"

namespace codemode::worker {
namespace {

using Reason = ErasureRefusal::Reason;

// The source a case describes: its text without the «» marks.
std::string unmarked(std::string_view marked) {
  std::string out;
  for (std::size_t i = 0; i < marked.size();) {
    if (marked.substr(i).starts_with("«") || marked.substr(i).starts_with("»")) {
      i += 2;
      continue;
    }
    out += marked[i++];
  }
  return out;
}

// What the eraser must make of it: every ASCII character between « and » a space, line breaks kept.
std::string blanked(std::string_view marked) {
  std::string out;
  bool inside = false;
  for (std::size_t i = 0; i < marked.size();) {
    if (marked.substr(i).starts_with("«") || marked.substr(i).starts_with("»")) {
      inside = marked.substr(i).starts_with("«");
      i += 2;
      continue;
    }
    const char c = marked[i++];
    out += inside && c != '\n' ? ' ' : c;
  }
  return out;
}

// The invariants every erasure keeps: the same length, line breaks in place, each byte either kept
// or whitespace (or a `;` or `)` written into an erased span), and erasing again changes nothing.
void check_invariants(std::string_view source, const std::string& erased) {
  ASSERT_EQ(erased.size(), source.size());
  for (std::size_t i = 0; i < source.size(); ++i) {
    if (source[i] == '\n' || source[i] == '\r') {
      ASSERT_EQ(erased[i], source[i]) << "offset " << i;
    }
    const bool kept = erased[i] == source[i];
    const bool blank = erased[i] == ' ' || static_cast<unsigned char>(erased[i]) >= 0x80;
    ASSERT_TRUE(kept || blank || erased[i] == ';' || erased[i] == ')') << "offset " << i;
  }
  const auto again = erase_types(erased);
  ASSERT_TRUE(std::holds_alternative<std::string>(again)) << erased;
  EXPECT_EQ(std::get<std::string>(again), erased);
}

std::string erase_ok(std::string_view source) {
  const auto result = erase_types(source);
  if (const auto* refusal = std::get_if<ErasureRefusal>(&result)) {
    ADD_FAILURE() << "refused: " << refusal->message << "\n" << source;
    return {};
  }
  const std::string& erased = std::get<std::string>(result);
  check_invariants(source, erased);
  return erased;
}

// A case written with «» around what must be blanked.
void expect_blanked(std::string_view marked) {
  EXPECT_EQ(erase_ok(unmarked(marked)), blanked(marked)) << unmarked(marked);
}

void expect_unchanged(std::string_view javascript) { EXPECT_EQ(erase_ok(javascript), javascript); }

ErasureRefusal refusal_of(std::string_view source) {
  const auto result = erase_types(source);
  if (!std::holds_alternative<ErasureRefusal>(result)) {
    ADD_FAILURE() << "not refused:\n" << source;
    return {};
  }
  return std::get<ErasureRefusal>(result);
}

void expect_refused(std::string_view source, std::string_view construct, int line) {
  const ErasureRefusal refusal = refusal_of(source);
  EXPECT_EQ(refusal.reason, Reason::kUnsupported) << refusal.message;
  EXPECT_EQ(refusal.construct, construct);
  EXPECT_EQ(refusal.line, line);
  EXPECT_NE(refusal.message.find("`" + std::string(construct) + "`"), std::string::npos);
  EXPECT_NE(refusal.message.find("(line " + std::to_string(line) + ")"), std::string::npos);
}

TEST(TypeEraserTest, ErasesVariableParameterAndReturnAnnotations) {
  expect_blanked("let x«: number» = 1;");
  expect_blanked("const a«: string[]», b«: Record<string, number>» = [], c = {};");
  expect_blanked("function f(a«: number», b«?: string», ...rest«: T[]»)«: void» {}");
  expect_blanked("function g({ a, b }«: Point» = { a: 1, b: 2 }, [c]«: [number]»)«: number» {}");
  expect_blanked("let y«!: number»;");
  expect_blanked("try {} catch (e«: unknown») {}");
  expect_blanked("for (const [k, v]«: [string, number]» of entries) {}");
}

TEST(TypeEraserTest, ErasesArrowFunctionTypes) {
  expect_blanked("const id = «<T,>»(xs«: T[]»)«: T» => xs[0];");
  expect_blanked("const f = async (x«: number»)«: Promise<number>» => x;");
  expect_blanked("const g = async «<T>»(x«: T»)«: Promise<T>» => x;");
  expect_blanked("const h = ({ a = 1, b }«: { a?: number; b: string }») => a;");
  expect_blanked("xs.map((x«: number», i«?: number»)«: string» => `${x}`);");
  expect_blanked("const k = (a«?», b«?: number») => a;");
  expect_blanked("const p = (x)«: x is string» => true;");
}

TEST(TypeEraserTest, MovesTheParenthesisWhenAReturnTypeEndsOnTheArrowsLine) {
  // `)` then a line break then `=>` is no arrow function in JavaScript.
  EXPECT_EQ(erase_ok("const f = (a: number)\n  : number => a;"),
            "const f = (a         \n         ) => a;");
  EXPECT_EQ(erase_ok("const g = (a): {\n  x: number\n} => ({ x: a });"),
            "const g = (a    \n           \n) => ({ x: a });");
  // On one line nothing moves.
  EXPECT_EQ(erase_ok("const h = (a): number => a;"), "const h = (a)         => a;");
}

TEST(TypeEraserTest, ErasesAssertionsAndNonNull) {
  expect_blanked("const a = b« as string»;");
  expect_blanked("const levels = [1, 2]« as const»;");
  expect_blanked("const c = { a: 1 }« satisfies Config»;");
  expect_blanked("const d = (e« as unknown»)« as number» + 1;");
  expect_blanked("const v = map.get(k)«!».length + obj«!».a«!»[0]«!»;");
  expect_blanked("x«!» = 1;");
  expect_blanked("const s = «<string>»value;");
  expect_blanked("const n = «<number>»(«<unknown>»v);");
  expect_unchanged("const ne = a != b, sne = a !== b, not = !a;");
}

TEST(TypeEraserTest, ErasesTypeArgumentsOfCallsNewAndTemplates) {
  expect_blanked("const m = new Map«<Tier, number>»();");
  expect_blanked("const s = new Set«<string>»;");
  expect_blanked("const v = f«<string>»(x), w = o.m«<A, B<C>>»(y);");
  expect_blanked("const t = tag«<T>»`a${b}c`;");
  expect_blanked("const u = o?.m«<T>»(1);");
  expect_blanked("const g = f«<string>»;");
  expect_blanked("class A extends B«<T>» {}");
}

TEST(TypeEraserTest, KeepsComparisonsThatTypeScriptReadsAsComparisons) {
  expect_unchanged("const r = a < b > c;");
  expect_unchanged("const r = a < b > -c;");
  expect_unchanged("const r = [a < b, c > d], s = a << 2 >> 1, t = a >= b, u = x >>>= 1;");
  expect_unchanged("if (a < b && b > c) f(a < 1, b > 2);");
  expect_unchanged("for (let i = 0; i < n; i++) if (i > 3) break;");
  // TypeScript reads `<b>(c)` as type arguments of a call: so does the eraser. (Its caller erases
  // only text that is not JavaScript already.)
  expect_blanked("const r = a« < b >» (c);");
}

TEST(TypeEraserTest, ErasesInterfacesAndTypeAliasesWhole) {
  expect_blanked("«interface Item { sku: string; price?: number; [k: string]: unknown }»\nf();");
  expect_blanked(
      "«export interface Box<T extends object = {}> extends A, B.C<T> {\n"
      "  readonly value: T;\n  get(): T;\n  set?(v: T): void;\n  new (x: T): Box<T>;\n"
      "  <U>(u: U): U;\n}»\nf();");
  expect_blanked("«type Id = string | number;»\nf();");
  expect_blanked(
      "«type R<T> =\n  | { ok: true; value: T }\n  | { ok: false; error: string };»\nf();");
  expect_blanked(
      "«type C<T> = T extends (infer U)[] ? U : T extends Promise<infer V> ? V : never;»");
  expect_blanked("«type M<T> = { readonly [K in keyof T as `get${string & K}`]-?: () => T[K] };»");
  expect_blanked("«type L = `${Lowercase<\"A\">}-${number}`;»");
  expect_blanked("«type F = new (...args: any[]) => object;»\n«type G = typeof import(\"x\");»");
  expect_blanked("«type T1 = [a: string, b?: number, ...rest: boolean[]];»");
  expect_blanked("«type U = unique symbol;» «type K = keyof typeof obj;»");
  // Conditional types inside parentheses and in a function type's return type, in the `extends`
  // of another conditional type.
  expect_blanked(
      "«type Eq<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2\n"
      "  ? true : false;»");
  expect_blanked("«type U2<T> = false extends (T extends unknown ? [T] : never) ? 1 : 2;»");
}

TEST(TypeEraserTest, ErasesClassTypeSyntax) {
  expect_blanked(
      "«abstract »class A«<T>» extends B «implements I, J<T>» {\n"
      "  «private readonly »x«: number» = 1;\n"
      "  «declare y: string;»\n"
      "  z«!: number»;\n"
      "  «public »static #w«?: number»;\n"
      "  «abstract m(): void;»\n"
      "  «[key: string]: any;»\n"
      "  «over(a: string): void;»\n"
      "  over(a«: any») {}\n"
      "  «protected override »get v()«: number» { return 1; }\n"
      "  opt«?»() {}\n"
      "  gen«<U>»(«this: A<T>, »u«: U»)«: U» { return u; }\n"
      "  static { init(); }\n"
      "}");
  expect_blanked("const K = class«<T>» { x«?: T»; };");
}

TEST(TypeEraserTest, ErasesThisParametersAndOverloads) {
  expect_blanked("function f(«this: Ctx, »x«: number») {}");
  expect_blanked("function g(«this: Ctx») {}");
  expect_blanked("«function h(a: string): string;»\nfunction h(a«: any») { return a; }");
}

TEST(TypeEraserTest, ErasesTypeOnlyImportsAndExports) {
  expect_blanked("«import type { A } from \"a\";»");
  expect_blanked("«import type B from \"b\";»");
  expect_blanked("import { «type A, »b } from \"m\";");
  expect_blanked("«import { type A, type B } from \"m\";»");
  expect_blanked("«export type { A };»");
  expect_blanked("export { «type A, »b };");
  expect_blanked("«export type X = number;»");
  expect_blanked("«export declare const y: number;»");
  expect_unchanged("import { type } from \"m\";");
  expect_blanked("«import type Stream = require(\"stream\");»");
  expect_blanked("«declare namespace N { export import A = M.A; export = A; }»");
}

TEST(TypeEraserTest, ErasesDeclareAndTypeOnlyNamespaces) {
  expect_blanked("«declare const x: number;»\n«declare function f(): void;»\nx;");
  expect_blanked("«declare class C { m(): void; x: number }»\n«declare enum E { A, B }»\n1;");
  expect_blanked("«declare namespace N { const v: number; }»\n«declare module \"m\" {}»");
  expect_blanked("«declare global { interface Window { x: number } }»");
  expect_blanked("«namespace Types { export interface A {} export type B = A; }»");
  expect_blanked("«namespace Outer.Inner { interface Z {} }»");
}

TEST(TypeEraserTest, WritesTheSemicolonTypeScriptInsertedWhereJavaScriptWouldNot) {
  // The erased interface would let `(f)()` call the 1 on the line before.
  EXPECT_EQ(erase_ok("let x = 1\ninterface I {}\n(f)()"), "let x = 1\n;             \n(f)()");
  // An erased tail of a statement would let `(` or `[` continue it.
  EXPECT_EQ(erase_ok("let a = b as T\n(f)()"), "let a = b ;   \n(f)()");
  EXPECT_EQ(erase_ok("let c: T\n[1].map(g)"), "let c;  \n[1].map(g)");
  EXPECT_EQ(erase_ok("x = y satisfies Z\n`t`"), "x = y ;          \n`t`");
  // Not when the next line could not continue it anyway, or the statement ended with `;`.
  EXPECT_EQ(erase_ok("let d: T\nf()"), "let d   \nf()");
  EXPECT_EQ(erase_ok("let e: T;\n(f)()"), "let e   ;\n(f)()");
  EXPECT_EQ(erase_ok("interface I {}\n(f)()"), "              \n(f)()");
  // The body of a label, an if or a loop stays a statement.
  EXPECT_EQ(erase_ok("t: declare const T: 1;"), "t: ;                  ");
  EXPECT_EQ(erase_ok("if (a) type X = 1; else b();"), "if (a) ;           else b();");
}

TEST(TypeEraserTest, KeepsTrickyJavaScriptByteForByte) {
  expect_unchanged("const r = /[/]\\/(?<n>a)+/giu.test(s) ? x / 2 / y : /=/.source;");
  expect_unchanged("const t = `a${`b${c}`}d${{ e: 1 }.e}`;");
  expect_unchanged("const o = c ? { a: 1, b: [2] } : { a: 0 }; lbl: for (;;) { break lbl; }");
  expect_unchanged("switch (x) { case 1: case y: { z(); break; } default: w(); }");
  expect_unchanged("const f = async ({ a = 1, b: [c, ...d] } = {}, ...e) => { await a; };");
  expect_unchanged("function* g() { yield* h(); const x = yield; } async function* k() {}");
  expect_unchanged(
      "class C { #x = 1; static s; get y() { return this.#x; } set y(v) {} "
      "static { C.s = 1; } #m() { return #x in this; } }");
  expect_unchanged("const v = a?.b?.[c]?.(d) ?? e; a ||= b; a &&= c; a ?\?= d;");
  expect_unchanged("const n = 1_000n + 0x1F + 1e-3 + .5 + 1..toString().length;");
  expect_unchanged("const \\u0061b = 1, ünï = 2, 名 = 3; // comment\n/* block */ x\n++y");
  expect_unchanged(
      "let as = 1, type = 2, declare = 3, interface = 4; as + type;\n"
      "type\nX = 1\ndeclare\nlet y");
  expect_unchanged("(input, tools) => { const { a } = input; return tools.call('x', a); }");
  expect_unchanged("x = a ? (b) : c => d; y = a ? (b, c) : (d);");
  expect_unchanged("#!/usr/bin/env node\nf()");
}

TEST(TypeEraserTest, ReadsConditionalsAndArrowsAsTypeScriptDoes) {
  expect_blanked("x = a ? (b)«: T» => b : c;");
  expect_blanked("x = a ? (b) : (c)«: T» => c;");
  expect_blanked("x = a ? b« as T» : c;");
}

TEST(TypeEraserTest, KeepsColumnsOfMultiByteCharactersInErasedSpans) {
  // é (2 bytes, 1 UTF-16 unit) becomes U+00A0; 😀 (4 bytes, 2 units) two U+00A0.
  EXPECT_EQ(erase_ok("let a: 'é' = 1;"), "let a   \xC2\xA0  = 1;");
  EXPECT_EQ(erase_ok("let b: '😀' = 2;"), "let b   \xC2\xA0\xC2\xA0  = 2;");
  EXPECT_EQ(erase_ok("let c: '名' = 3;"), "let c   \xE3\x80\x80  = 3;");
}

TEST(TypeEraserTest, RefusesConstructsThatGenerateCode) {
  expect_refused("let a = 1;\nlet b = 2;\nenum Color { Red, Green }", "enum", 3);
  expect_refused("const enum E { A }", "const enum", 1);
  expect_refused("export enum E { A }", "enum", 1);
  expect_refused("namespace N {\n  export const x = 1;\n}", "namespace", 1);
  expect_refused("class P {\n  constructor(private x: number) {}\n}", "parameter property", 2);
  expect_refused("class P { constructor(readonly x) {} }", "parameter property", 1);
  expect_refused("@sealed\nclass D {}", "decorator", 1);
  expect_refused("class D {\n  @log m() {}\n}", "decorator", 2);
  expect_refused("import fs = require(\"fs\");", "import =", 1);
  expect_refused("export = value;", "export =", 1);
  expect_refused("class A { accessor x = 1; }", "accessor", 1);
  expect_refused("const v = a + b as T * c;", "as", 1);
  expect_refused("const w = a ** b satisfies T ** c;", "satisfies", 1);
}

TEST(TypeEraserTest, RefusalMessageNamesTheConstructAndTheFix) {
  EXPECT_EQ(refusal_of("\n\nenum Color { Red }").message,
            "TypeScript `enum` cannot run here (line 3): only type annotations are erased; use a "
            "plain object instead.");
}

TEST(TypeEraserTest, ReportsSyntaxErrorsWithTheirPosition) {
  const ErasureRefusal refusal = refusal_of("let a = 1;\nlet b = (;");
  EXPECT_EQ(refusal.reason, Reason::kSyntax);
  EXPECT_EQ(refusal.line, 2);
  EXPECT_EQ(refusal.column, 10);
  EXPECT_EQ(refusal_of("let s = 'é' + )").column, 15);                        // UTF-16 columns
  EXPECT_EQ(refusal_of("const x = <div>hi</div>;").reason, Reason::kSyntax);  // no JSX
}

TEST(TypeEraserTest, RefusesDeepNestingWithoutRecursingFurther) {
  for (const auto& [open, close] : {std::pair{"(", ")"},
                                    {"[", "]"},
                                    {"{a:", "}"},
                                    {"!", ""},
                                    {"a ** ", "a"},
                                    {"() => ", "1"},
                                    {"`${", "}`"}}) {
    std::string deep = "x = ";
    for (int i = 0; i < 100'000; ++i) deep += open;
    deep += "1";
    for (int i = 0; i < 100'000; ++i) deep += close;
    EXPECT_EQ(refusal_of(deep).reason, Reason::kTooDeep) << open;
  }
  std::string type = "let t: ";
  for (int i = 0; i < 50'000; ++i) type += "Array<";
  type += "number";
  for (int i = 0; i < 50'000; ++i) type += ">";
  EXPECT_EQ(refusal_of(type).reason, Reason::kTooDeep);
  std::string moderate = "x = ";  // what people write nests far less, and is erased
  for (int i = 0; i < 40; ++i) moderate += "f((a: number) => [";
  moderate += "1";
  for (int i = 0; i < 40; ++i) moderate += "])";
  erase_ok(moderate);
}

using std::chrono_literals::operator""ms;
using codemode::testing::slack;

std::chrono::milliseconds time_to_erase(const std::string& source) {
  const auto start = std::chrono::steady_clock::now();
  static_cast<void>(erase_types(source));
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               start);
}

// About 0.1 s in a release build; the bound leaves room for a machine busy with builds.
TEST(TypeEraserTest, ErasesAMebibyteQuickly) {
  const std::string unit =
      "const f = async <T,>(xs: T[], n?: number): Promise<T | undefined> => xs[n ?? 0] as T;\n"
      "interface I { a: string; b: Record<string, number[]> }\n"
      "let v = a < b ? new Map<string, I>() : (c as unknown as I[])!.map((x: I) => x.a);\n";
  std::string source;
  while (source.size() + unit.size() <= kMaxTypeScriptSourceBytes) source += unit;
  const auto start = std::chrono::steady_clock::now();
  const auto erased = erase_types(source);
  EXPECT_LT(std::chrono::steady_clock::now() - start, slack(2000ms));
  EXPECT_TRUE(std::holds_alternative<std::string>(erased));
}

TEST(TypeEraserTest, CraftedAmbiguityStaysLinear) {
  // Each `<` tries type arguments and each `(` an arrow head; the work budget and the memo of
  // parentheses that were no arrow head keep this linear.
  for (const std::string_view unit : {"a < b < c, ", "(a, (b, ", "a ? (b) : ", "f<(a)=>"}) {
    std::string source = "x = ";
    while (source.size() + unit.size() < kMaxTypeScriptSourceBytes) source += unit;
    EXPECT_LT(time_to_erase(source), slack(2000ms)) << unit;
  }
}

TEST(TypeEraserTest, RefusesMoreThanAMebibyte) {
  const std::string source(kMaxTypeScriptSourceBytes + 1, ' ');
  EXPECT_EQ(refusal_of(source).reason, Reason::kTooLarge);
}

}  // namespace
}  // namespace codemode::worker
