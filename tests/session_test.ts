/**
 * The session ledger on disk: old ledgers are swept when a new session starts, at most hourly;
 * ledgers are named by a hash of the session id; files are 0600 and never written through a link.
 */
import { assert, assertEquals, assertNotStrictEquals, assertThrows } from "@std/assert";
import { join } from "../core/path.ts";
import {
  appendDebug,
  DEBUG_LOG_MAX_BYTES,
  debugLogPath,
  MAX_SESSION_FILE_BYTES,
  readLedger,
  removeOldLedgers,
  sessionFile,
  writeLedger,
} from "../io/hook/session.ts";
import { readOrCreatePrivateText, UnsafeCacheError } from "../io/fs.ts";
import { tempDir } from "./helpers.ts";

const readOrCreate = (path: string) => readOrCreatePrivateText(path, MAX_SESSION_FILE_BYTES);
const ledgerName = (id: string) => sessionFile("", id).split("/").pop()!;

const DAY = 24 * 60 * 60 * 1000;

function age(path: string, ms: number): void {
  const then = new Date(Date.now() - ms);
  Deno.utimeSync(path, then, then);
}

Deno.test("a new session sweeps session files older than a week, at most once an hour", async () => {
  await using cacheDir = await tempDir();
  const cache = cacheDir.path;
  const sessions = join(cache, "sessions");
  Deno.mkdirSync(sessions, { recursive: true });
  Deno.writeTextFileSync(join(sessions, "old.json"), "{}");
  Deno.writeTextFileSync(join(sessions, "recent.json"), "{}");
  age(join(sessions, "old.json"), 8 * DAY);
  age(join(sessions, "recent.json"), 6 * DAY);

  writeLedger(cache, "new-session", { "kb-aaaaa": "h1" }, true);
  const names = () => [...Deno.readDirSync(sessions)].map((item) => item.name).sort();
  assertEquals(names(), [ledgerName("new-session"), "recent.json"].sort());
  assertEquals(readLedger(cache, "new-session"), {
    ledger: { "kb-aaaaa": "h1" },
    isNew: false,
  });

  Deno.writeTextFileSync(join(sessions, "stale.json"), "{}");
  age(join(sessions, "stale.json"), 9 * DAY);
  writeLedger(cache, "another-session", {}, true);
  assertEquals(names().includes("stale.json"), true, "swept less than an hour ago: left for later");

  age(join(cache, "sessions.swept"), 2 * 60 * 60 * 1000);
  writeLedger(cache, "third-session", {}, true);
  assertEquals(names().includes("stale.json"), false, "the next sweep removes it");
});

Deno.test("a session id with path characters stays inside the sessions folder", async () => {
  await using cacheDir = await tempDir();
  const cache = cacheDir.path;
  writeLedger(cache, "../../etc/passwd", { "kb-aaaaa": "h" }, false);
  assertEquals([...Deno.readDirSync(cache)].map((item) => item.name), ["sessions"]);
  assertEquals(readLedger(cache, "../../etc/passwd").ledger, { "kb-aaaaa": "h" });
});

Deno.test("the sweep keeps at most the newest session files past the age limit", async () => {
  await using sessionsDir = await tempDir();
  const sessions = sessionsDir.path;
  for (const [name, days] of [["a.json", 1], ["b.json", 2], ["c.receipts.json", 3]] as const) {
    Deno.writeTextFileSync(join(sessions, name), "{}");
    age(join(sessions, name), days * DAY);
  }
  assertEquals(removeOldLedgers(sessions, Date.now() - 30 * DAY, 2), 1);
  assertEquals([...Deno.readDirSync(sessions)].map((item) => item.name).sort(), [
    "a.json",
    "b.json",
  ]);
});

Deno.test("a new session's ledger reads as new, from an empty file left for the write", async () => {
  await using cacheDir = await tempDir();
  const cache = cacheDir.path;
  assertEquals(readLedger(cache, "fresh"), { ledger: {}, isNew: true });
  const path = sessionFile(cache, "fresh");
  assertEquals(Deno.readTextFileSync(path), "", "created empty, sessions folder included");
  assertEquals(readLedger(cache, "fresh"), { ledger: {}, isNew: true }, "empty is still new");
  writeLedger(cache, "fresh", { "kb-bbbbb": "h2" }, true);
  assertEquals(readLedger(cache, "fresh"), { ledger: { "kb-bbbbb": "h2" }, isNew: false });
  Deno.writeTextFileSync(path, '{"kb-bbbbb": "h2"');
  assertEquals(readLedger(cache, "fresh"), { ledger: {}, isNew: true }, "damaged: afresh");
});

Deno.test("readOrCreatePrivateText reads a file whole, past one read's worth and in UTF-8", async () => {
  await using dirTemp = await tempDir();
  const dir = dirTemp.path;
  const path = join(dir, "big.txt");
  const text = "résumé ☕ ".repeat(40_000);
  Deno.writeTextFileSync(path, text);
  assertEquals(readOrCreate(path), text);
});

Deno.test("readOrCreatePrivateText creates a missing file empty, and its folders with it", async () => {
  await using dirTemp = await tempDir();
  const dir = dirTemp.path;
  const nested = join(dir, "a", "b", "ledger.json");
  assertEquals(readOrCreate(nested), "");
  assertEquals(Deno.readTextFileSync(nested), "", "created, empty");
  assertEquals(readOrCreate(join(dir, "a", "b", "other.json")), "", "in a folder that exists");
  Deno.writeTextFileSync(nested, "{}");
  assertEquals(readOrCreate(nested), "{}", "an existing file is read, not truncated");
});

Deno.test("session ids that reduce to the same characters keep ledgers of their own", async () => {
  await using cacheDir = await tempDir();
  const cache = cacheDir.path;
  assertNotStrictEquals(sessionFile(cache, "team.alice"), sessionFile(cache, "team_alice"));
  writeLedger(cache, "team.alice", { "kb-aaaaa": "h1" }, false);
  writeLedger(cache, "team_alice", { "kb-bbbbb": "h2" }, false);
  assertEquals(readLedger(cache, "team.alice").ledger, { "kb-aaaaa": "h1" });
  assertEquals(readLedger(cache, "team_alice").ledger, { "kb-bbbbb": "h2" });
});

Deno.test("ledgers and their folder are the user's alone: 0600 files in a 0700 folder", async () => {
  await using cacheDir = await tempDir();
  const cache = cacheDir.path;
  readLedger(cache, "s");
  writeLedger(cache, "s", { "kb-aaaaa": "h1" }, true);
  writeLedger(cache, "s", { "kb-aaaaa": "h2" }, false);
  assertEquals(Deno.statSync(join(cache, "sessions")).mode! & 0o777, 0o700);
  for (const item of Deno.readDirSync(join(cache, "sessions"))) {
    assertEquals(Deno.statSync(join(cache, "sessions", item.name)).mode! & 0o777, 0o600);
  }
  assertEquals(Deno.statSync(join(cache, "sessions.swept")).mode! & 0o777, 0o600);
});

Deno.test("a ledger that is a symbolic link is neither read nor written through", async () => {
  await using cacheDir = await tempDir();
  const cache = cacheDir.path;
  await using victimDir = await tempDir();
  const victim = victimDir.path;
  const secret = join(victim, "secret.txt");
  Deno.writeTextFileSync(secret, "private key");
  Deno.mkdirSync(join(cache, "sessions"));
  Deno.symlinkSync(secret, sessionFile(cache, "s"));
  assertThrows(() => readLedger(cache, "s"), UnsafeCacheError);
  assertThrows(() => writeLedger(cache, "s", { "kb-aaaaa": "h" }, true), UnsafeCacheError);
  writeLedger(cache, "s", { "kb-aaaaa": "h" }, false);
  assertEquals(
    Deno.readTextFileSync(secret),
    "private key",
    "the atomic write replaced the link",
  );
  assert(Deno.lstatSync(sessionFile(cache, "s")).isFile);
});

Deno.test("the sweep never follows a link: sessions -> another folder deletes nothing there", async () => {
  await using cacheDir = await tempDir();
  const cache = cacheDir.path;
  await using victimDir = await tempDir();
  const victim = victimDir.path;
  for (const name of ["thesis.json", "notes.txt"]) {
    Deno.writeTextFileSync(join(victim, name), "keep me");
    age(join(victim, name), 30 * DAY);
  }
  Deno.symlinkSync(victim, join(cache, "sessions"));
  assertEquals(removeOldLedgers(join(cache, "sessions"), Date.now(), 0), 0);
  // Inside a real sessions folder, an old link is removed as a link; its target stays.
  Deno.removeSync(join(cache, "sessions"));
  Deno.mkdirSync(join(cache, "sessions"));
  Deno.symlinkSync(join(victim, "thesis.json"), join(cache, "sessions", "old.json"));
  Deno.symlinkSync(victim, join(cache, "sessions", "folder.json"));
  assertEquals(
    removeOldLedgers(join(cache, "sessions"), Date.now() + DAY),
    2,
    "both links, by age",
  );
  assertEquals([...Deno.readDirSync(victim)].map((item) => item.name).sort(), [
    "notes.txt",
    "thesis.json",
  ]);
});

Deno.test("the debug log is bounded: past its size it moves to debug.jsonl.1 and starts anew", async () => {
  await using dirTemp = await tempDir();
  const dir = dirTemp.path;
  const record = { note: "x".repeat(1024 * 1024) };
  for (let count = 0; count < 16; count++) appendDebug(dir, record);
  const log = debugLogPath(dir);
  const old = (await Deno.stat(`${log}.1`)).size;
  assert(old > DEBUG_LOG_MAX_BYTES && old < DEBUG_LOG_MAX_BYTES + 2 * 1024 * 1024, `${old}`);
  assertEquals(await Deno.stat(log).catch(() => undefined), undefined, "a new log begins");
  appendDebug(dir, { note: "after" });
  assertEquals(JSON.parse(await Deno.readTextFile(log)).note, "after");
});
