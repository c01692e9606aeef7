/**
 * A hook never starts work it cannot finish in its time: with more entry files to read than a
 * hook may (`HOOK_INLINE_READS`), the prompt hook builds no index inline. With none it answers
 * nothing, with one it answers from it as it is, and either way it notes that a rebuild is due;
 * the session's watch, which has the time, rebuilds at once on that note. A small knowledge base
 * is still indexed inline on the first prompt. Real subprocesses with the hooks' permissions.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { hookFlags } from "../app/permissions.ts";
import { HOOK_INLINE_READS } from "../io/index/store.ts";
import {
  cacheRootOf,
  childEnv,
  denoDir,
  entryText,
  exists,
  git,
  type Kb,
  makeKb,
  ROOT,
  runHook,
  show,
} from "./helpers.ts";

const PROMPT = "how does the ocelot lantern work";

/** A knowledge base of more entries than a hook reads, one of them about the ocelot lantern. */
async function makeLargeKb(): Promise<Kb> {
  const kb = await makeKb({ empty: true });
  for (let index = 0; index <= HOOK_INLINE_READS + 20; index++) {
    const id = `kb-l${index.toString(36).padStart(4, "0")}`;
    const title = index === 7 ? "Ocelot lantern" : `Filler note ${index}`;
    await Deno.writeTextFile(
      join(kb.dir, "entries", `${id}-${title.toLowerCase().replaceAll(" ", "-")}.md`),
      entryText({ id, title, body: `About ${title}.\n` }),
    );
  }
  await git(kb.dir, "add", "-A");
  await git(kb.dir, "commit", "--quiet", "-m", "many entries");
  return kb;
}

/** The knowledge base's cache folder (made by the first hook run). */
async function cacheOf(kb: Kb): Promise<string> {
  const root = cacheRootOf(kb.env);
  for await (const folder of Deno.readDir(root)) {
    if (folder.name.startsWith("kb-")) return join(root, folder.name);
  }
  throw new Error(`no cache folder of the knowledge base under ${root}`);
}

async function prompt(kb: Kb): Promise<string> {
  const result = await runHook(
    JSON.stringify({ prompt: PROMPT, session_id: crypto.randomUUID() }),
    {
      env: { ...kb.env, KB_HOOK_DEBUG: "1" },
    },
  );
  assertEquals(result.code, 0, show(result));
  return result.stdout;
}

/**
 * Wait (at most 20 s, less than the watch's 30 s period: what it does it does in its first round)
 * until `ready` holds; fails the test otherwise.
 */
async function until(what: string, ready: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 20_000; !(await ready());) {
    assert(Date.now() < deadline, `waited 20 s for ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** The session's watch, run as its hook runs, with its real period (30 s). */
async function startWatch(kb: Kb): Promise<Deno.ChildProcess> {
  const env = childEnv({
    ...kb.env,
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    DENO_DIR: await denoDir(),
    KB_HOOK_DEBUG: "1",
  });
  const watch = new Deno.Command(Deno.execPath(), {
    args: ["run", ...hookFlags("watch", cacheRootOf(kb.env)), join(ROOT, "hooks", "watch.ts")],
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const writer = watch.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify({ session_id: "s-1" })));
  await writer.close();
  return watch;
}

Deno.test("a knowledge base too large for a hook: no inline build, the watch rebuilds, a stale index answers", async () => {
  await using kb = await makeLargeKb();
  assertEquals(await prompt(kb), "", "no index to answer from");
  const cache = await cacheOf(kb);
  const manifest = join(cache, "index", "manifest.json");
  const note = join(cache, "rebuild-due.json");
  assertEquals(await exists(manifest), false, "the hook built no index");
  assert(await exists(note), "the hook noted that a rebuild is due");
  assertEquals(await prompt(kb), "", "nor on the next prompt");
  assertMatch(
    await Deno.readTextFile(join(cache, "debug.jsonl")),
    /IndexDeferredError|left to the session's watch/,
  );

  // The watch's first round only claims the knowledge base, unless a rebuild is due: here at once.
  const watch = await startWatch(kb);
  try {
    await until("the watch to rebuild", async () => await exists(manifest) && !await exists(note));
  } finally {
    watch.kill("SIGTERM");
    await watch.status;
    await watch.stderr.cancel();
  }
  assertMatch(await prompt(kb), /kb-l0007 Ocelot lantern/);

  // More files changed than a hook reads: it answers from the index as it was.
  const later = new Date(Date.now() + 5_000);
  for await (const item of Deno.readDir(join(kb.dir, "entries"))) {
    const path = join(kb.dir, "entries", item.name);
    await Deno.writeTextFile(path, (await Deno.readTextFile(path)).replace("About", "On"));
    await Deno.utime(path, later, later);
  }
  assertMatch(await prompt(kb), /kb-l0007 Ocelot lantern/, "answered from the stale index");
  assert(await exists(note), "a rebuild is due again");
  const records = (await Deno.readTextFile(join(cache, "debug.jsonl"))).trim().split("\n")
    .map((line) => JSON.parse(line));
  assertEquals(records.at(-1).index, "stale", JSON.stringify(records.at(-1)));
});

Deno.test("a small knowledge base is indexed inline on the first prompt", async () => {
  await using kb = await makeKb();
  const result = await runHook(JSON.stringify({ prompt: "rotate a leaked npm token" }), {
    env: kb.env,
  });
  assertEquals(result.code, 0, show(result));
  assertMatch(result.stdout, /additionalContext/);
  assert(await exists(join(await cacheOf(kb), "index", "manifest.json")));
  assertEquals(await exists(join(await cacheOf(kb), "rebuild-due.json")), false);
});

Deno.test("with no index at all, the watch builds it at once, not a period later", async () => {
  await using kb = await makeLargeKb();
  const watch = await startWatch(kb);
  try {
    await until("the watch to build the index", async () => {
      try {
        return await exists(join(await cacheOf(kb), "index", "manifest.json"));
      } catch {
        return false; // no cache folder yet
      }
    });
  } finally {
    watch.kill("SIGTERM");
    await watch.status;
    await watch.stderr.cancel();
  }
  assertMatch(await prompt(kb), /kb-l0007 Ocelot lantern/);
});
