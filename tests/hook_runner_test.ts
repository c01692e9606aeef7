/**
 * Every hook goes through the one stdio runner (io/hook/stdin.ts runHookOnStdio): it reads no
 * stdin and parses no payload of its own, and any input that is not a JSON object ends it with
 * exit 0 and nothing on stdout.
 *
 * @module
 */
import { assertEquals } from "@std/assert";
import { hookFlags } from "../app/permissions.ts";
import { join } from "../core/path.ts";
import { cacheRootOf, ROOT, runDeno, tempDir } from "./helpers.ts";

/** Each hook's entry point and its name in app/permissions.ts. */
const HOOKS: Record<string, string> = {
  "prompt.ts": "prompt",
  "judge.ts": "judge",
  "search_augment.ts": "search",
  "subagent.ts": "subagent",
  "receipts.ts": "receipts",
  "session_start.ts": "session",
  "watch.ts": "watch",
  "fetch_allow.ts": "fetch",
  "capture.ts": "capture",
  "capture_worker.ts": "capture-worker",
};

Deno.test("every hook entry point is listed here and runs through runHookOnStdio", async () => {
  const files: string[] = [];
  for await (const entry of Deno.readDir(join(ROOT, "hooks"))) {
    if (entry.isFile && entry.name.endsWith(".ts")) files.push(entry.name);
  }
  assertEquals(files.sort(), Object.keys(HOOKS).sort());
  for (const file of files) {
    const source = await Deno.readTextFile(join(ROOT, "hooks", file));
    assertEquals(source.includes("runHookOnStdio("), true, `${file} does not use the runner`);
    for (const own of ["JSON.parse(", "readStdinText(", "Deno.stdin", "writeHookOutput("]) {
      assertEquals(source.includes(own), false, `${file} calls ${own} itself`);
    }
  }
});

for (const [file, name] of Object.entries(HOOKS)) {
  Deno.test(`hooks/${file}: an array, a string or invalid JSON exits 0 with no output`, async () => {
    await using tmpDir = await tempDir("git-kb-runner-");
    const tmp = tmpDir.path;
    const env = {
      HOME: tmp,
      TMPDIR: tmp,
      XDG_CACHE_HOME: join(tmp, "cache"),
      KB_HOOK_DEBUG: "1",
    };
    for (const stdin of ["[]", '[{"prompt": "rotate the npm token"}]', '"x"', "{not json", ""]) {
      // Through the dispatcher, as the launcher runs them: the capture hook gets its hand-off there.
      const result = await runDeno(
        ["run", ...hookFlags(name, cacheRootOf(env)), join(ROOT, "app", "launch.ts"), "hook", name],
        { env, cwd: tmp, stdin },
      );
      assertEquals(result.code, 0, `${file} on ${stdin}: ${result.stderr}`);
      assertEquals(result.stdout, "", `${file} on ${stdin}`);
    }
  });
}
