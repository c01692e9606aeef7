import { assertEquals } from "@std/assert";
import { join } from "../../core/path.ts";
import { kbCacheDir } from "../paths.ts";
import { appendDebugRecord, debugEnabled, RecordedError, recordFailure } from "./debug_log.ts";
import { debugLogPath } from "./session.ts";
import { overrideEnv, runAlone } from "../../tests/helpers.ts";

/** Run `body` with KB_HOOK_DEBUG and the cache root set, restoring both after. */
async function withDebug(value: string | undefined, body: (kbDir: string) => void): Promise<void> {
  const tmp = await Deno.makeTempDir({ prefix: "git-kb-debug-log-" });
  try {
    using _env = overrideEnv({ KB_HOOK_DEBUG: value, XDG_CACHE_HOME: join(tmp, "cache") });
    body(join(tmp, "kb"));
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

function records(kbDir: string): Record<string, unknown>[] {
  let text = "";
  try {
    text = Deno.readTextFileSync(debugLogPath(kbCacheDir(kbDir)));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return text.split("\n").filter(Boolean).map((line) => JSON.parse(line));
}

Deno.test("debugging is on only for KB_HOOK_DEBUG=1", async (t) => {
  if (await runAlone(t)) return;
  await withDebug("1", () => assertEquals(debugEnabled(), true));
  await withDebug("true", () => assertEquals(debugEnabled(), false));
  await withDebug(undefined, () => assertEquals(debugEnabled(), false));
});

Deno.test("a record is appended with its timestamp first, only when debugging", async (t) => {
  if (await runAlone(t)) return;
  await withDebug(undefined, (kbDir) => {
    appendDebugRecord(kbDir, { event: "x" });
    assertEquals(records(kbDir), []);
  });
  await withDebug("1", (kbDir) => {
    appendDebugRecord(kbDir, { event: "x", outcome: "fetched" });
    const [record] = records(kbDir);
    assertEquals(Object.keys(record), ["ts", "event", "outcome"]);
    assertEquals(Number.isNaN(Date.parse(String(record.ts))), false);
  });
});

Deno.test("a failure is recorded once, with its event and summary", async (t) => {
  if (await runAlone(t)) return;
  await withDebug("1", (kbDir) => {
    recordFailure(new TypeError("bad"), kbDir, "search");
    recordFailure(new RecordedError(new Error("already there")), kbDir, "search");
    recordFailure("plain", kbDir);
    assertEquals(records(kbDir).map(({ ts: _, ...rest }) => rest), [
      { event: "search", outcome: "error", error: "TypeError: bad" },
      { outcome: "error", error: "plain" },
    ]);
  });
});
