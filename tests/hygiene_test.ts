/**
 * The tree stays formatted, lint-free and type-correct (the checks of `deno task check`), and
 * the library module documented (`deno doc --lint mod.ts`): here so CI enforces them.
 */
import { deepStrictEqual as deepEqual, strictEqual as equal } from "node:assert/strict";

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
  equal(code, 0, output);
});

Deno.test("deno lint passes", async () => {
  const { code, output } = await deno("lint");
  equal(code, 0, output);
});

Deno.test("deno check passes on every entry point and test", async () => {
  const { code, output } = await deno("check", ".");
  equal(code, 0, output);
});

Deno.test("deno doc --lint passes on the library module", async () => {
  const { code, output } = await deno("doc", "--lint", "mod.ts");
  equal(code, 0, output);
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

/**
 * Named imports of node:assert/strict that Deno still binds to the loose functions (its `equal`
 * lets `equal(1, "1")` pass): `strictEqual as equal` is the strict spelling.
 */
const LOOSE_NAMES = new Set(["equal", "deepEqual", "notEqual", "notDeepEqual"]);

Deno.test("tests assert strictly: node:assert/strict, and no name bound to a loose check", () => {
  const looseImport = `from "node:assert${'"'}`;
  const strictImport = /import \{([^}]*)\} from "node:assert\/strict"/g;
  const loose = sourceFiles().filter((path) => {
    const text = Deno.readTextFileSync(`${root}${path}`);
    const named = [...text.matchAll(strictImport)].flatMap((match) => match[1].split(","));
    return text.includes(looseImport) || named.some((name) => LOOSE_NAMES.has(name.trim()));
  });
  deepEqual(loose, []);
});
