/**
 * Tests stay independent of each other under `deno test --parallel`, which runs test files side by
 * side in one process: no test changes that process's environment, which they all share, except
 * through `overrideEnv` in a test run alone in a process of its own (`runAlone`).
 */
import { assertEquals, assertThrows } from "@std/assert";
import { join } from "@std/path/posix/join";
import { relative } from "@std/path/posix/relative";
import { overrideEnv, ROOT, runAlone } from "./helpers.ts";

Deno.test("overrideEnv refuses to change the environment of the shared test process", () => {
  const home = Deno.env.get("HOME");
  assertThrows(() => overrideEnv({ HOME: "/elsewhere" }), Error, "runAlone");
  assertEquals(Deno.env.get("HOME"), home);
});

Deno.test("a test run alone changes its own process's environment, not this one's", async (t) => {
  const home = Deno.env.get("HOME");
  if (await runAlone(t)) {
    assertEquals(Deno.env.get("HOME"), home, "the child's change stayed in the child");
    return;
  }
  {
    using _home = overrideEnv({ HOME: "/elsewhere" });
    assertEquals(Deno.env.get("HOME"), "/elsewhere");
  }
  assertEquals(Deno.env.get("HOME"), home, "put back once disposed");
});

/** Every TypeScript file under `dir`, skipping fixtures. */
function sources(dir: string): string[] {
  return [...Deno.readDirSync(dir)].flatMap((item) => {
    const path = join(dir, item.name);
    if (item.isDirectory) return item.name === "fixtures" ? [] : sources(path);
    return item.name.endsWith(".ts") ? [path] : [];
  });
}

Deno.test("no test sets or deletes an environment variable but through overrideEnv", () => {
  const tests = ["tests", "core", "io", "app", "cli", "hooks", "build"].flatMap((dir) =>
    sources(join(ROOT, dir))
  ).filter((path) => /_test\.ts$/.test(path) || path.startsWith(join(ROOT, "tests")));
  const offenders = tests.filter((path) =>
    path !== join(ROOT, "tests", "helpers.ts") &&
    /Deno\.env\.(set|delete)\(/.test(Deno.readTextFileSync(path))
  ).map((path) => relative(ROOT, path));
  assertEquals(offenders, []);
});
