/**
 * The session ledger on disk: old ledgers are swept when a new session starts, at most hourly.
 */
import { deepStrictEqual, equal } from "node:assert";
import { join } from "../core/path.ts";
import { readLedger, removeOldLedgers, writeLedger } from "../io/session.ts";
import { readOrCreateText } from "../io/fs.ts";

const DAY = 24 * 60 * 60 * 1000;

function age(path: string, ms: number): void {
  const then = new Date(Date.now() - ms);
  Deno.utimeSync(path, then, then);
}

Deno.test("a new session sweeps session files older than a week, at most once an hour", () => {
  const cache = Deno.makeTempDirSync();
  try {
    const sessions = join(cache, "sessions");
    Deno.mkdirSync(sessions, { recursive: true });
    Deno.writeTextFileSync(join(sessions, "old.json"), "{}");
    Deno.writeTextFileSync(join(sessions, "recent.json"), "{}");
    age(join(sessions, "old.json"), 8 * DAY);
    age(join(sessions, "recent.json"), 6 * DAY);

    writeLedger(cache, "new-session", { "kb-aaaaa": "h1" }, true);
    const names = () => [...Deno.readDirSync(sessions)].map((item) => item.name).sort();
    deepStrictEqual(names(), ["new-session.json", "recent.json"]);
    deepStrictEqual(readLedger(cache, "new-session"), {
      ledger: { "kb-aaaaa": "h1" },
      isNew: false,
    });

    Deno.writeTextFileSync(join(sessions, "stale.json"), "{}");
    age(join(sessions, "stale.json"), 9 * DAY);
    writeLedger(cache, "another-session", {}, true);
    equal(names().includes("stale.json"), true, "swept less than an hour ago: left for later");

    age(join(cache, "sessions.swept"), 2 * 60 * 60 * 1000);
    writeLedger(cache, "third-session", {}, true);
    equal(names().includes("stale.json"), false, "the next sweep removes it");
  } finally {
    Deno.removeSync(cache, { recursive: true });
  }
});

Deno.test("a session id with path characters stays inside the sessions folder", () => {
  const cache = Deno.makeTempDirSync();
  try {
    writeLedger(cache, "../../etc/passwd", { "kb-aaaaa": "h" }, false);
    deepStrictEqual([...Deno.readDirSync(cache)].map((item) => item.name), ["sessions"]);
    deepStrictEqual(readLedger(cache, "../../etc/passwd").ledger, { "kb-aaaaa": "h" });
  } finally {
    Deno.removeSync(cache, { recursive: true });
  }
});

Deno.test("the sweep keeps at most the newest session files past the age limit", () => {
  const sessions = Deno.makeTempDirSync();
  try {
    for (const [name, days] of [["a.json", 1], ["b.json", 2], ["c.receipts.json", 3]] as const) {
      Deno.writeTextFileSync(join(sessions, name), "{}");
      age(join(sessions, name), days * DAY);
    }
    equal(removeOldLedgers(sessions, Date.now() - 30 * DAY, 2), 1);
    deepStrictEqual([...Deno.readDirSync(sessions)].map((item) => item.name).sort(), [
      "a.json",
      "b.json",
    ]);
  } finally {
    Deno.removeSync(sessions, { recursive: true });
  }
});

Deno.test("a new session's ledger reads as new without an exception, from an empty file left for the write", () => {
  const cache = Deno.makeTempDirSync();
  try {
    deepStrictEqual(readLedger(cache, "fresh"), { ledger: {}, isNew: true });
    const path = join(cache, "sessions", "fresh.json");
    equal(Deno.readTextFileSync(path), "", "created empty, sessions folder included");
    deepStrictEqual(readLedger(cache, "fresh"), { ledger: {}, isNew: true }, "empty is still new");
    writeLedger(cache, "fresh", { "kb-bbbbb": "h2" }, true);
    deepStrictEqual(readLedger(cache, "fresh"), { ledger: { "kb-bbbbb": "h2" }, isNew: false });
    Deno.writeTextFileSync(path, '{"kb-bbbbb": "h2"');
    deepStrictEqual(readLedger(cache, "fresh"), { ledger: {}, isNew: true }, "damaged: afresh");
  } finally {
    Deno.removeSync(cache, { recursive: true });
  }
});

Deno.test("readOrCreateText reads a file whole, past one read's worth and in UTF-8", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = join(dir, "big.txt");
    const text = "résumé ☕ ".repeat(40_000);
    Deno.writeTextFileSync(path, text);
    equal(readOrCreateText(path), text);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("readOrCreateText creates a missing file empty, and its folders with it", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const nested = join(dir, "a", "b", "ledger.json");
    equal(readOrCreateText(nested), "");
    equal(Deno.readTextFileSync(nested), "", "created, empty");
    equal(readOrCreateText(join(dir, "a", "b", "other.json")), "", "in a folder that exists");
    Deno.writeTextFileSync(nested, "{}");
    equal(readOrCreateText(nested), "{}", "an existing file is read, not truncated");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
