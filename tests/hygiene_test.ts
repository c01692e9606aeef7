/**
 * The tree stays formatted, lint-free and type-correct (the checks of `deno task check`), and
 * the library module documented (`deno doc --lint mod.ts`): here so CI enforces them.
 */
import { assertEquals } from "@std/assert";

const root = new URL("..", import.meta.url).pathname;

async function deno(...args: string[]): Promise<{ code: number; output: string }> {
  const { code, stdout, stderr } = await new Deno.Command("deno", {
    args,
    cwd: root,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code, output: new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr) };
}

Deno.test("deno fmt --check passes", async () => {
  const { code, output } = await deno("fmt", "--check");
  assertEquals(code, 0, output);
});

Deno.test("deno lint passes", async () => {
  const { code, output } = await deno("lint");
  assertEquals(code, 0, output);
});

Deno.test("deno check passes on every entry point and test", async () => {
  const { code, output } = await deno("check", ".");
  assertEquals(code, 0, output);
});

Deno.test("deno doc --lint passes on the library module", async () => {
  const { code, output } = await deno("doc", "--lint", "mod.ts");
  assertEquals(code, 0, output);
});

/** Every TypeScript file under `dir`, relative to the root, skipping generated and vendored code. */
function sourceFiles(dir = ""): string[] {
  const files: string[] = [];
  for (const item of Deno.readDirSync(`${root}${dir}`)) {
    const path = dir ? `${dir}/${item.name}` : item.name;
    if (item.isDirectory && !/^(\.|node_modules$|plugin$|fixtures$)/.test(item.name)) {
      files.push(...sourceFiles(path));
    } else if (item.isFile && path.endsWith(".ts")) files.push(path);
  }
  return files;
}

Deno.test("tests assert with the @std/assert names, not node:assert", () => {
  const nodeAssert = /\bfrom\s*["']node:assert(?:\/strict)?["']/;
  const offenders = sourceFiles().filter((path) =>
    nodeAssert.test(Deno.readTextFileSync(`${root}${path}`))
  );
  assertEquals(offenders, []);
});
