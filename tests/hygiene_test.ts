/**
 * The tree stays formatted, lint-free and type-correct: the same checks a developer runs with
 * `deno task check`, here so CI enforces them.
 */
import { equal } from "node:assert";

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
