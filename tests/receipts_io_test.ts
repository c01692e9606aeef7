/**
 * Receipts on disk: the log of unmatched prompts is appended to, bounded, read back through
 * malformed lines, and kept whole by processes appending at once.
 */
import { assert, assertEquals } from "@std/assert";
import { join } from "../core/path.ts";
import { RECEIPT_LIMITS } from "../core/delivery/receipts.ts";
import { appendUnmatched, MAX_UNMATCHED_BYTES, readSessions } from "../io/hook/receipts.ts";
import { runProcess } from "../io/process.ts";
import { readLedger, sessionFile, writeLedger } from "../io/hook/session.ts";
import { ROOT, tempDir } from "./helpers.ts";

function withCache(test: (cache: string) => void | Promise<void>): () => Promise<void> {
  return async () => {
    await using cacheDir = await tempDir("git-kb-receipts-");
    const cache = cacheDir.path;
    await test(cache);
  };
}

Deno.test(
  "unmatched prompts are appended and read back as counts, malformed lines skipped",
  withCache((cache) => {
    appendUnmatched(cache, "s1", ["bake", "bread"]);
    appendUnmatched(cache, "s1", ["bread", "oven"]);
    Deno.writeTextFileSync(sessionFile(cache, "s1", ".unmatched.jsonl"), "{oops\n[1, 2]\n", {
      append: true,
    });
    const [session, ...others] = readSessions(cache);
    assertEquals(others.length, 0);
    assertEquals(session.receipts.unmatched, {
      prompts: 2,
      words: { bake: 1, bread: 2, oven: 1 },
    });
    assertEquals(session.ledger, {});
  }),
);

Deno.test(
  "a prompt's words are cut to the per-prompt bound and the log stops at its size bound",
  withCache((cache) => {
    const words = Array.from({ length: 20 }, (_, index) => `word${index}`);
    appendUnmatched(cache, "s2", words);
    const path = sessionFile(cache, "s2", ".unmatched.jsonl");
    assertEquals(
      JSON.parse(Deno.readTextFileSync(path)),
      words.slice(0, RECEIPT_LIMITS.wordsPerPrompt),
    );
    for (let index = 0; index < 2000; index++) appendUnmatched(cache, "s2", words);
    const size = Deno.statSync(path).size;
    assert(size <= MAX_UNMATCHED_BYTES, `${size} bytes`);
    assert(size > MAX_UNMATCHED_BYTES - 200, "filled up to the bound");
    assertEquals(
      Deno.readTextFileSync(path).split("\n").filter(Boolean).every((line) => {
        return Array.isArray(JSON.parse(line));
      }),
      true,
    );
  }),
);

Deno.test(
  "processes appending to one session's log at once lose no line and tear none",
  withCache(async (cache) => {
    const script = join(cache, "append.ts");
    Deno.writeTextFileSync(
      script,
      `import { appendUnmatched } from "${join(ROOT, "io", "hook", "receipts.ts")}";\n` +
        `for (let i = 0; i < 25; i++) appendUnmatched(Deno.args[0], "shared", [Deno.args[1], "w" + i]);\n`,
    );
    const runs = Array.from(
      { length: 8 },
      (_, index) =>
        runProcess("deno", [
          "run",
          // The script lies outside the repository: name the config that maps its imports.
          "--config",
          join(ROOT, "deno.json"),
          "--allow-read",
          "--allow-write",
          "--allow-sys=uid",
          script,
          cache,
          `p${index}`,
        ]),
    );
    for (const result of await Promise.all(runs)) assertEquals(result.code, 0, result.stderr);
    const lines = Deno.readTextFileSync(sessionFile(cache, "shared", ".unmatched.jsonl"))
      .split("\n").filter(Boolean);
    assertEquals(lines.length, 200);
    assertEquals(readSessions(cache)[0].receipts.unmatched.prompts, 200);
  }),
);

Deno.test(
  "a session whose ledger was only read (created empty) is not a session record yet",
  withCache((cache) => {
    readLedger(cache, "looked-only");
    writeLedger(cache, "shown", { "kb-ccccc": "h3" }, true);
    appendUnmatched(cache, "unmatched-only", ["bake"]);
    const sessions = readSessions(cache);
    assertEquals(sessions.length, 2);
    assertEquals(sessions.map((session) => Object.keys(session.ledger)), [["kb-ccccc"], []]);
    assertEquals(sessions[1].receipts.unmatched.prompts, 1);
  }),
);
