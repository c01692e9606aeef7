/**
 * The layer rule, checked on every source file: imports only point down
 * (core ← io ← {cli, hooks} ← app ← build), entry points reach each other only through their
 * dispatcher, Deno's file, process and stat calls live in io/, and git runs only in io/git.ts.
 * Each failure names the file and line of every violation.
 */
import { assertEquals } from "@std/assert";

const root = new URL("..", import.meta.url).pathname;

/** The layers each layer may import from (itself included). */
const ALLOWED_IMPORTS: Record<string, readonly string[]> = {
  // The stand-ins for the standard library (imported as `@std/...`) import only each other.
  std: ["std"],
  core: ["core"],
  io: ["core", "io"],
  cli: ["core", "io", "cli"],
  hooks: ["core", "io", "hooks"],
  app: ["core", "io", "cli", "hooks", "app"],
  build: ["core", "io", "cli", "hooks", "app", "build"],
};

/** The modules that load the entry points; only they may import a command or a hook. */
const DISPATCHERS = new Set(["app/main.ts", "app/launch.ts"]);

/** Modules in cli/ that are shared helpers, not commands: any command may import them. */
const CLI_HELPERS = new Set([
  "cli/args.ts",
  "cli/output.ts",
  "cli/errors.ts",
  "cli/entry_flags.ts",
  "cli/entry_save.ts",
  "cli/save_report.ts",
  "cli/mcp_tools.ts",
]);

/** Deno's file, process and stat calls, and the node modules that do the same. */
const IO_CALL = new RegExp(
  String.raw`\bDeno\.(readTextFile|writeTextFile|readFile|writeFile|stat|lstat|mkdir|remove|` +
    String.raw`rename|readDir|realPath|open|Command\b|makeTemp|chmod|symlink|copyFile|truncate|` +
    String.raw`utime)|["']node:(fs|child_process)(/[a-z]+)?["']`,
);

/** A git subprocess started directly rather than through io/git.ts. */
const GIT_SPAWN = /(runProcess|Deno\.Command)\(\s*["']git["']/;

/** Where file, process and stat calls are allowed besides io/. */
const IO_ALLOWED = (path: string) =>
  path.startsWith("io/") || path.startsWith("build/") || path === "demo.ts";

/** A relative import specifier, static or dynamic. */
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']+)["']/g;

/** Every layered source file (not tests, bench, fixtures, generated or vendored code). */
function sourceFiles(dir = ""): string[] {
  const files: string[] = [];
  for (const item of Deno.readDirSync(`${root}${dir}`)) {
    const path = dir ? `${dir}/${item.name}` : item.name;
    if (item.isDirectory) {
      if (!/^(\.|node_modules$|plugin$|fixtures$|tests$|bench$|bin$)/.test(item.name)) {
        files.push(...sourceFiles(path));
      }
    } else if (path.endsWith(".ts") && !path.endsWith("_test.ts")) files.push(path);
  }
  return files.sort();
}

/** The lines of `path` with their numbers, comment lines blanked. */
function codeLines(path: string): { line: number; text: string }[] {
  return Deno.readTextFileSync(`${root}${path}`).split("\n").map((text, at) => ({
    line: at + 1,
    text: /^\s*(\/\/|\*|\/\*)/.test(text) ? "" : text,
  }));
}

/** The layer a repository path sits in: its first folder, or "" for a root file. */
function layerOf(path: string): string {
  const slash = path.indexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

/** `specifier` imported from `from`, as a repository path. */
function resolve(from: string, specifier: string): string {
  return new URL(specifier, `file:///${from}`).pathname.slice(1);
}

/** Whether `path` is an entry point: a command in cli/ or a hook. */
function isEntryPoint(path: string): boolean {
  if (layerOf(path) === "hooks") return true;
  return layerOf(path) === "cli" && !CLI_HELPERS.has(path) && !DISPATCHERS.has(path);
}

const files = sourceFiles();

Deno.test("no module imports from a layer above its own", () => {
  const violations: string[] = [];
  for (const path of files) {
    const allowed = ALLOWED_IMPORTS[layerOf(path)];
    if (!allowed) continue;
    for (const { line, text } of codeLines(path)) {
      for (const [, specifier] of text.matchAll(IMPORT)) {
        const target = resolve(path, specifier);
        const layer = layerOf(target);
        // JSON (deno.json's version, the generated hooks.json) is data, not a layer's code.
        if (!target.endsWith(".json") && !allowed.includes(layer)) {
          violations.push(
            `${path}:${line}: ${layerOf(path)} imports ${layer || target} (${target})`,
          );
        }
      }
    }
  }
  assertEquals(violations, []);
});

Deno.test("entry points import each other only through the dispatcher", () => {
  const violations: string[] = [];
  for (const path of files) {
    if (!isEntryPoint(path)) continue;
    for (const { line, text } of codeLines(path)) {
      for (const [, specifier] of text.matchAll(IMPORT)) {
        const target = resolve(path, specifier);
        if (target !== path && isEntryPoint(target)) {
          violations.push(`${path}:${line}: imports the entry point ${target}`);
        }
      }
    }
  }
  assertEquals(violations, []);
});

Deno.test("file, process and stat calls happen only in io/", () => {
  const violations: string[] = [];
  for (const path of files) {
    if (IO_ALLOWED(path)) continue;
    for (const { line, text } of codeLines(path)) {
      const call = text.match(IO_CALL);
      if (call) violations.push(`${path}:${line}: ${call[0]}`);
    }
  }
  assertEquals(violations, []);
});

Deno.test("git runs only through io/git.ts", () => {
  const violations: string[] = [];
  for (const path of files) {
    if (path === "io/git.ts" || path === "demo.ts") continue;
    for (const { line, text } of codeLines(path)) {
      if (GIT_SPAWN.test(text)) violations.push(`${path}:${line}: ${text.trim()}`);
    }
  }
  assertEquals(violations, []);
});
