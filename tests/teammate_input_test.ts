/**
 * A shared knowledge base is input from other people: what a teammate pushes reaches this
 * machine by `sync` (or the SessionStart pull) and must never turn git-kb against its user. Two
 * machines (two HOMEs, two caches) around a bare remote, real git, the real CLI and hooks.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readIndexedEntry, UnsafeEntryPathError } from "../io/index/store.ts";
import { listEntryFiles, readKbFile, UnreadableEntryError } from "../io/kb.ts";
import {
  cloneRemote,
  entryText,
  git,
  type Kb,
  makeKb,
  parseJson,
  runCli,
  runHook,
  show,
  tempDir,
} from "./helpers.ts";

/** A credential in the victim's push URL, as `git remote set-url --push` with a token leaves it. */
const TOKEN = "ghp_TEAMMATEMUSTNEVERSEE0123456789";

/** Commit everything in `clone` and push it to the shared remote, as a teammate would. */
async function pushAll(clone: string, message: string): Promise<void> {
  await git(clone, "add", "-A");
  await git(clone, "commit", "--quiet", "-m", message);
  await git(clone, "push", "--quiet", "origin", "HEAD:main");
}

/** The victim's knowledge base with a token in its push URL, and a teammate's clone. */
async function victimAndTeammate(): Promise<{ kb: Kb; teammate: string }> {
  const kb = await makeKb({ remote: true });
  await git(kb.dir, "remote", "set-url", "--push", "origin", `https://u:${TOKEN}@example.test/kb`);
  return { kb, teammate: await cloneRemote(kb, "teammate") };
}

Deno.test("a teammate's symlink to .git/config is never served: not indexed, not got, not pointed at", async (t) => {
  const { kb, teammate } = await victimAndTeammate();
  await using _kb = kb;
  await Deno.symlink("../.git/config", join(teammate, "entries", "kb-aaaaa-config.md"));
  await pushAll(teammate, "kb: add kb-aaaaa: config");

  const synced = await runCli(["sync"], { env: kb.env });
  assert.equal(synced.code, 0, show(synced));
  assert.ok((await Deno.lstat(join(kb.dir, "entries", "kb-aaaaa-config.md"))).isSymlink);

  await t.step("index leaves it out and names it", async () => {
    const indexed = await runCli(["index", "--json"], { env: kb.env });
    const report = parseJson<{ invalid: { path: string; message: string }[] }>(indexed);
    const left = report.invalid.find((file) => file.path === "entries/kb-aaaaa-config.md");
    assert.match(left?.message ?? "(not left out)", /is a symlink/, show(indexed));
  });
  await t.step("get, search and the prompt hook never print the credentials", async () => {
    const got = await runCli(["get", "kb-aaaaa"], { env: kb.env });
    assert.notEqual(got.code, 0, show(got));
    const searched = await runCli(["search", "config"], { env: kb.env });
    const hook = await runHook(
      JSON.stringify({ session_id: "s1", prompt: "show me the config of the remote origin" }),
      { env: kb.env },
    );
    for (const result of [got, searched, hook]) {
      assert.doesNotMatch(result.stdout + result.stderr, new RegExp(TOKEN), show(result));
      assert.doesNotMatch(result.stdout, /kb-aaaaa/, show(result));
    }
  });
  await t.step("doctor reports it as a problem with a fix", async () => {
    const doctor = await runCli(["doctor", "--offline"], { env: kb.env });
    assert.equal(doctor.code, 1, show(doctor));
    assert.match(
      doctor.stdout,
      /FAIL entries: entries\/kb-aaaaa-config\.md is left out of the index: is a symlink.*fix: /,
      show(doctor),
    );
    assert.doesNotMatch(doctor.stdout + doctor.stderr, new RegExp(TOKEN), show(doctor));
  });
});

Deno.test("entries are never read through a symlinked folder, nor from a path the cache names outside entries/", async () => {
  await using temp = await tempDir("git-kb-links-");
  const kbDir = join(temp.path, "kb");
  const elsewhere = join(temp.path, "elsewhere");
  await Deno.mkdir(join(kbDir, "entries"), { recursive: true });
  await Deno.mkdir(join(kbDir, ".git"));
  await Deno.mkdir(elsewhere);
  const secret = entryText({ id: "kb-sec01", title: "Secret", body: `${TOKEN}\n` });
  await Deno.writeTextFile(join(elsewhere, "kb-sec01-secret.md"), secret);
  await Deno.writeTextFile(join(kbDir, ".git", "kb-sec01-secret.md"), secret);
  await Deno.symlink(elsewhere, join(kbDir, "entries", "sub"));
  await Deno.symlink("../.git", join(kbDir, "entries", "git.md"));

  const listing = listEntryFiles(kbDir);
  assert.deepEqual(listing.entries, []);
  const refused = (error: unknown) => error instanceof UnreadableEntryError;
  assert.throws(() => readKbFile(kbDir, "entries/sub/kb-sec01-secret.md"), refused);
  assert.throws(() => readKbFile(kbDir, "entries/git.md/kb-sec01-secret.md"), refused);
  const unsafe = (error: unknown) => error instanceof UnsafeEntryPathError;
  for (
    const path of [
      "entries/sub/kb-sec01-secret.md",
      "entries/../.git/kb-sec01-secret.md",
      ".git/kb-sec01-secret.md",
      "entries/git.md/kb-sec01-secret.md",
    ]
  ) {
    assert.throws(() => readIndexedEntry(kbDir, "kb-sec01", path), unsafe, path);
  }

  await Deno.remove(join(kbDir, "entries"), { recursive: true });
  await Deno.symlink(elsewhere, join(kbDir, "entries"));
  const linked = listEntryFiles(kbDir);
  assert.deepEqual(linked.entries, []);
  assert.match(linked.leftOut.find((file) => file.path === "entries")?.message ?? "", /symlink/);
  assert.throws(() => readKbFile(kbDir, "entries/kb-sec01-secret.md"), refused);
});
