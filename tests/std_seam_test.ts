/**
 * The `@std/` seam: the code imports the Deno standard library by its JSR names, which
 * `deno.json` maps to the stand-ins in std/ while JSR is out of reach. Switching a package to
 * JSR must stay one line of `deno.json`, so every `@std/` import resolves to an entry of its
 * imports, each entry names a module the real package exports, and each stand-in exports only
 * names the real module does.
 */
import { assert, assertEquals } from "@std/assert";
import { join } from "@std/path/posix/join";
import { ROOT } from "./helpers.ts";

/**
 * What the real packages export, by package and module (`.` for the package's root), as their
 * `deno.json` and sources at github.com/denoland/std commit ca58f94 (August 2026) declare them:
 * @std/assert 1.0.19, @std/cli 1.0.32, @std/path 1.1.6, @std/yaml 1.2.0. Only the modules with a
 * stand-in here are listed.
 */
const STD_EXPORTS: Record<string, Record<string, readonly string[]>> = {
  "@std/assert": {
    ".": [
      "AnyConstructor",
      "ArrayLikeArg",
      "AssertionError",
      "Falsy",
      "GetConstructorType",
      "assert",
      "assertAlmostEquals",
      "assertArrayIncludes",
      "assertEquals",
      "assertExists",
      "assertFalse",
      "assertGreater",
      "assertGreaterOrEqual",
      "assertInstanceOf",
      "assertIsError",
      "assertLess",
      "assertLessOrEqual",
      "assertMatch",
      "assertNotEquals",
      "assertNotInstanceOf",
      "assertNotMatch",
      "assertNotStrictEquals",
      "assertObjectMatch",
      "assertRejects",
      "assertStrictEquals",
      "assertStringIncludes",
      "assertThrows",
      "equal",
      "fail",
      "unimplemented",
      "unreachable",
    ],
  },
  "@std/cli": { "./parse-args": ["Args", "ParseOptions", "parseArgs"] },
  "@std/path": {
    "./posix/dirname": ["dirname"],
    "./posix/join": ["join"],
    "./posix/normalize": ["normalize"],
    "./posix/relative": ["relative"],
  },
  "@std/yaml": {
    ".": [
      "ParseOptions",
      "SchemaType",
      "StringifyOptions",
      "StyleVariant",
      "YamlPosition",
      "YamlSyntaxError",
      "parse",
      "parseAll",
      "stringify",
    ],
  },
};

/** deno.json's import map. */
const IMPORTS: Record<string, string> =
  JSON.parse(Deno.readTextFileSync(join(ROOT, "deno.json"))).imports;

/** `@std/name/sub/path` as its package (`@std/name`) and the module in it (`./sub/path` or `.`). */
function packageOf(specifier: string): { name: string; module: string } {
  const [scope, name, ...rest] = specifier.split("/");
  return { name: `${scope}/${name}`, module: rest.length ? `./${rest.join("/")}` : "." };
}

/** Every TypeScript file of the repository, generated and fixture folders left out. */
function sourceFiles(dir = ""): string[] {
  const files: string[] = [];
  for (const item of Deno.readDirSync(join(ROOT, dir))) {
    const path = dir ? `${dir}/${item.name}` : item.name;
    if (item.isDirectory) {
      if (!/^(\.|node_modules$|fixtures$|bin$)/.test(item.name)) files.push(...sourceFiles(path));
    } else if (path.endsWith(".ts")) files.push(path);
  }
  return files;
}

/** The names a module declares as exported, types included. */
function exportedNames(path: string): string[] {
  const text = Deno.readTextFileSync(join(ROOT, path));
  const declared = /^export (?:async )?(?:function|class|type|interface|const) (\w+)/gm;
  return [...new Set([...text.matchAll(declared)].map((match) => match[1]))].sort();
}

Deno.test("every @std/ import resolves to an entry of deno.json's imports", () => {
  const unresolved: string[] = [];
  for (const path of sourceFiles()) {
    const text = Deno.readTextFileSync(join(ROOT, path));
    for (const [, specifier] of text.matchAll(/from\s+"(@std\/[^"]+)"/g)) {
      if (!Object.hasOwn(IMPORTS, specifier)) unresolved.push(`${path}: ${specifier}`);
    }
  }
  assertEquals(unresolved, []);
});

Deno.test("each @std/ entry names a module of the real package, served by a stand-in in std/", () => {
  const entries = Object.entries(IMPORTS).filter(([specifier]) => specifier.startsWith("@std/"));
  assert(entries.length >= 4, "the seam has its entries");
  for (const [specifier, target] of entries) {
    const { name, module } = packageOf(specifier);
    assert(STD_EXPORTS[name]?.[module], `${specifier} is not a module of the real ${name}`);
    assert(target.startsWith("./std/"), `${specifier} → ${target}: not a stand-in in std/`);
  }
});

Deno.test("each stand-in exports only what the real module does", () => {
  for (const [specifier, target] of Object.entries(IMPORTS)) {
    if (!specifier.startsWith("@std/")) continue;
    const { name, module } = packageOf(specifier);
    const documented = new Set(STD_EXPORTS[name][module]);
    const own = exportedNames(target);
    assert(own.length > 0, `${target} exports nothing`);
    assertEquals(own.filter((export_) => !documented.has(export_)), [], target);
  }
});
