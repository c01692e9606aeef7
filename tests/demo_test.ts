/**
 * `deno task demo` runs to the end, from a checkout whose path has a space and a quote, with an
 * empty Deno cache and no npm registry, and every command it echoes is safe to paste: sh reads
 * each echoed line back as exactly the words it shows, with no substitution (`…` or $(…)) run.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { shellCommand } from "../core/shell/quote.ts";
import { runProcess } from "../io/process.ts";
import { makeSandbox, ROOT, runDeno, show } from "./helpers.ts";

/** The words sh reads from `line`, with no program on PATH (a substitution would fail). */
async function wordsOf(line: string): Promise<string[]> {
  const read = await runProcess("/bin/sh", ["-c", `printf '%s\\0' ${line}`], {
    cwd: ROOT,
    clearEnv: true,
    env: { PATH: "/nonexistent" },
  });
  assertEquals(read.stderr, "", `sh complained about: ${line}`);
  return read.stdout.split("\0").slice(0, -1);
}

/** What the demo runs from a checkout. */
const DEMO_PARTS = [
  "demo.ts",
  "deno.json",
  "deno.lock",
  "app",
  "cli",
  "core",
  "io",
  "hooks",
  "std",
  "fixtures",
  "plugin",
];

Deno.test("the demo finishes from a checkout at a path with a space and a quote, and every command it echoes reads back as itself in sh", async () => {
  await using sandbox = await makeSandbox();
  const checkout = join(sandbox.root, "my o'brien checkout");
  await Deno.mkdir(checkout);
  const cp = await runProcess("cp", [
    "-R",
    ...DEMO_PARTS.map((part) => join(ROOT, part)),
    checkout,
  ]);
  assertEquals(cp.code, 0, show(cp));
  const demo = await runDeno(
    [
      "run",
      "--no-prompt",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-run=git,plugin/bin/git-kb",
      join(checkout, "demo.ts"),
    ],
    {
      // A cache Deno has never filled, and no npm registry: the demo's commands run the plugin's
      // bundles, which need nothing from npm.
      env: {
        HOME: sandbox.home,
        TMPDIR: sandbox.tmp,
        GIT_CONFIG_NOSYSTEM: "1",
        NPM_CONFIG_REGISTRY: "http://127.0.0.1:9/",
      },
      cwd: checkout,
      denoDir: join(sandbox.root, "empty-deno-dir"),
    },
  );
  assertEquals(demo.code, 0, show(demo));
  assertMatch(demo.stdout, /Demo finished\./);
  assertEquals(demo.stdout.split("\n").filter((line) => /Download/.test(line)), []);
  const commands = demo.stdout.split("\n").filter((line) => line.startsWith("$ "))
    .map((line) => line.slice(2));
  assert(commands.length >= 10, show(demo));
  assert(commands.some((line) => line.includes("`git switch`")), "the backtick body is shown");
  for (const line of commands) {
    const [command, stdinFile] = line.split(" < ");
    assertEquals(
      shellCommand(await wordsOf(command)),
      command,
      `not read back as shown: ${line}`,
    );
    if (stdinFile) {
      assertEquals(await wordsOf(stdinFile), ["fixtures/hooks/prompt-match.json"]);
    }
  }
});
