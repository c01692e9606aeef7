/**
 * A knowledge base whose `entries/` cannot be written: `add`, `edit` and `import` say so in a line
 * naming the folder (never a temp file's name), commit and write nothing, and keep what the user
 * typed. Root ignores permission bits, so as root the folder is made immutable instead (chattr).
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import {
  cloneRemote,
  entryPath,
  fileLimitBlock,
  git,
  lockFolder,
  makeKb,
  pushEntryFrom,
  runCli,
  runCliWithFileLimit,
  show,
  snapshot,
  writeFolder,
} from "./helpers.ts";
import { runProcess } from "../io/process.ts";
import { cramped } from "./slow_git.ts";

const CANNOT_WRITE =
  /^git-kb (add|edit|import): cannot write in (\S+) \((Operation not permitted|Permission denied)\), so nothing was written or committed; make the folder writable/;

Deno.test("an unwritable entries folder: add, edit and import name it, write nothing, keep the text", async () => {
  await using kb = await makeKb();
  const entries = join(kb.dir, "entries");
  const vault = join(kb.root, "vault");
  await writeFolder(vault, { "note.md": "# Imported note\n\nSome words to import.\n" });
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const before = await snapshot(kb.dir, [".git"]);
  const unlock = await lockFolder(entries);
  try {
    const typed = "Words typed on stdin that exist nowhere else.";
    const added = await runCli(
      ["add", "--title", "Locked out", "--type", "note", "--body-file", "-"],
      { env: kb.env, stdin: typed },
    );
    const edited = await runCli(["edit", "kb-2yb6n", "--add-tag", "x"], { env: kb.env });
    const imported = await runCli(["import", vault], { env: kb.env });
    for (
      const [result, command] of [[added, "add"], [edited, "edit"], [imported, "import"]] as const
    ) {
      assertEquals(result.code, 1, show(result));
      const match = CANNOT_WRITE.exec(result.stderr);
      assert(match, show(result));
      assertEquals([match[1], match[2]], [command, entries]);
      assert(!result.stderr.includes(".tmp"), `no temp file's name: ${show(result)}`);
      const next = Deno.uid() === 0 ? `ls -ld ${entries}` : `chmod u+w ${entries}`;
      assert(result.stderr.includes(next), show(result));
    }
    const draft = /kept in (\S+\.md)/.exec(added.stderr)?.[1];
    assert(draft, show(added));
    assertMatch(await Deno.readTextFile(draft), new RegExp(typed));
    assertMatch(added.stderr, /git-kb add --from-draft \S+\.md/);
  } finally {
    await unlock();
  }
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head, "nothing was committed");
  assertEquals(await snapshot(kb.dir, [".git"]), before, "nothing was written");
  assertEquals(await git(kb.dir, "status", "--porcelain"), "");
});

Deno.test("what came in cannot all be written (a folder git may not write): save and sync put back what git began to write, and say so", async () => {
  await using kb = await makeKb({ remote: true });
  await writeFolder(kb.dir, { "attachments/keep.txt": "kept\n" });
  await git(kb.dir, "add", "-A");
  await git(kb.dir, "commit", "--quiet", "-m", "attachments");
  await git(kb.dir, "push", "--quiet", "origin", "main");
  const teammate = await cloneRemote(kb, "teammate");
  // Git writes attachments/ before entries/: the new entry and the edit are written, then it fails.
  await writeFolder(teammate, { "attachments/kb-new01/photo.txt": "a photo\n" });
  await pushEntryFrom(teammate, "kb-new01", "A note with a photo", "See the photo.\n");
  const edited = join(teammate, await entryPath(teammate, "kb-2yb6n"));
  await Deno.writeTextFile(
    edited,
    (await Deno.readTextFile(edited)) + "A line from the teammate.\n",
  );
  await git(teammate, "add", "-A");
  await git(teammate, "commit", "--quiet", "-m", "kb: photo, and an edit");
  await git(teammate, "push", "--quiet", "origin", "main");

  const unlock = await lockFolder(join(kb.dir, "attachments"));
  try {
    const added = await runCli(
      ["add", "--title", "Written while the folder is locked", "--type", "note", "--body", "x"],
      { env: kb.env },
    );
    assertEquals(added.code, 3, show(added));
    assertMatch(
      added.stderr,
      /git could not write the files that came in from origin \(.*attachments\/kb-new01.*\), as on a full disk or in a folder it may not write; those it had begun to write are put back as they were/,
    );
    assertEquals(await git(kb.dir, "status", "--porcelain"), "", "nothing half-written is left");
    const synced = await runCli(["sync"], { env: kb.env });
    assertEquals(synced.code, 1, show(synced));
    assertMatch(synced.stderr, /git could not write the files that came in from origin/);
    assert(!/uncommitted changes|commit them/.test(synced.stderr), show(synced));
    assertEquals(await git(kb.dir, "status", "--porcelain"), "", "nothing half-written is left");
  } finally {
    await unlock();
  }
  const synced = await runCli(["sync"], { env: kb.env });
  assertEquals(synced.code, 0, show(synced));
  assertMatch(
    await Deno.readTextFile(join(kb.dir, await entryPath(kb.dir, "kb-2yb6n"))),
    /from the teammate/,
  );
  assertEquals(await git(kb.dir, "status", "--porcelain"), "");
});

Deno.test("no room on the disk (a file size limit stands in): add names the folder and the room to make, writes and commits nothing", async (t) => {
  await using kb = await makeKb();
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const before = await snapshot(kb.dir, [".git"]);
  const block = await fileLimitBlock(kb.root);
  const body = join(kb.root, "body.md");
  // Over 8 KiB as an entry, and over 16 KiB as git's object (words it cannot compress much).
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const word = () =>
    Array.from({ length: 6 }, () => letters[Math.floor(Math.random() * 26)]).join("");
  await Deno.writeTextFile(body, Array.from({ length: 5000 }, word).join(" ") + "\n");
  const args = ["add", "--title", "A long note", "--type", "note", "--body-file", body];
  await t.step("the entry file", async () => {
    // Git's own index, some 5 KiB, still fits.
    const added = await runCliWithFileLimit(Math.floor(8192 / block), args, kb.env);
    assertEquals(added.code, 1, show(added));
    assertMatch(
      added.stderr,
      /^git-kb add: cannot write in \S+\/entries \(File too large\), so nothing was written or committed; make room on its disk \(df -h \S+\/entries shows what is left\), then run the command again\./,
    );
  });
  await t.step("git's objects", async () => {
    const added = await runCli(args, {
      env: { ...kb.env, PATH: await cramped(kb.root, "update-index") },
    });
    assertEquals(added.code, 1, show(added));
    assertMatch(
      added.stderr,
      /^git-kb add: cannot write in \S+ \(.*File too large\), so nothing was written or committed; make room on its disk/,
    );
  });
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head, "nothing was committed");
  assertEquals(await snapshot(kb.dir, [".git"]), before, "nothing was written");
});

Deno.test("no room on the disk for what the remote sends: sync and doctor say so and how to see the room left, not that the remote cannot be reached", async () => {
  await using kb = await makeKb({ remote: true });
  const teammate = await cloneRemote(kb, "teammate");
  // Over 8 KiB in the pack the fetch writes (words it cannot compress much).
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const word = () =>
    Array.from({ length: 6 }, () => letters[Math.floor(Math.random() * 26)]).join("");
  await pushEntryFrom(
    teammate,
    "kb-big01",
    "A long note",
    Array.from({ length: 3000 }, word).join(" "),
  );
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const env = { ...kb.env, PATH: await cramped(kb.root, "fetch") };
  const synced = await runCli(["sync"], { env });
  assertEquals(synced.code, 1, show(synced));
  assertMatch(
    synced.stderr,
    /^git-kb sync: cannot write in \S+ \(.*File too large.*\), so nothing was written or committed; make room on its disk \(df -h \S+ shows what is left\)/,
  );
  assert(!/cannot reach|Check the network/.test(synced.stderr), show(synced));
  assertMatch(synced.stderr, /\n {2}\S+ sync --kb \S+\n?$/, "the sync to run again");
  const doctor = await runCli(["doctor"], { env });
  assertEquals(doctor.code, 1, show(doctor));
  assertMatch(
    doctor.stdout,
    /^FAIL remote: origin could not be fetched: cannot write in \S+ \(.*File too large.*\), so nothing was written or committed; make room on its disk \(df -h \S+ shows what is left\), then run the command again$/m,
  );
  assert(!/not reachable|set-url/.test(doctor.stdout), show(doctor));
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head, "nothing came in");
  assertEquals(await git(kb.dir, "status", "--porcelain"), "");
});

Deno.test("no room for the commit nor to unstage after it: add says what stays staged, and its pasted reset leaves nothing behind", async () => {
  await using kb = await makeKb();
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const added = await runCli(
    ["add", "--title", "Written on a full disk", "--type", "note", "--body", "Some words."],
    { env: { ...kb.env, PATH: await cramped(kb.root, ["commit", "reset"], 0) } },
  );
  assertEquals(added.code, 1, show(added));
  assertMatch(added.stderr, /^git-kb add: cannot write in \S+ \(.*File too large.*\)/);
  const unstage = /\n {2}(git -C \S+ reset --quiet -- entries\/kb-\w{5}-[\w-]+\.md)\n?$/.exec(
    added.stderr,
  )?.[1];
  assert(unstage, `the reset that unstages what the save staged: ${show(added)}`);
  assertMatch(
    added.stderr,
    /; but git could not unstage what it staged \(.*\): once git can write there, run the last line below\n/,
  );
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head, "nothing was committed");
  const reset = await runProcess("sh", ["-c", unstage], {});
  assertEquals(reset.code, 0, reset.stderr);
  assertEquals(await git(kb.dir, "status", "--porcelain"), "", "nothing is left staged");
});

Deno.test("git's objects folder takes no write (as after a sudo git pull): sync and doctor say so, not that the remote cannot be reached", async () => {
  await using kb = await makeKb({ remote: true });
  const teammate = await cloneRemote(kb, "teammate");
  await pushEntryFrom(teammate, "kb-new02", "Pushed by a teammate");
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const unlock = await lockFolder(join(kb.dir, ".git", "objects"));
  try {
    const synced = await runCli(["sync"], { env: kb.env });
    assertEquals(synced.code, 1, show(synced));
    assertMatch(
      synced.stderr,
      /^git-kb sync: cannot write in \S+\/\.git \(.*(insufficient permission|Operation not permitted|Permission denied).*\), so nothing was written or committed; make the folder writable/,
    );
    assert(!/cannot reach|Check the network/.test(synced.stderr), show(synced));
    assertMatch(synced.stderr, /\n {2}\S+ sync --kb \S+\n?$/, "the sync to run again");
    const doctor = await runCli(["doctor"], { env: kb.env });
    assertMatch(
      doctor.stdout,
      /^FAIL remote: origin could not be fetched: cannot write in \S+\/\.git /m,
    );
    assert(!/not reachable|set-url/.test(doctor.stdout), show(doctor));
  } finally {
    await unlock();
  }
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head, "nothing came in");
  const synced = await runCli(["sync"], { env: kb.env });
  assertEquals(synced.code, 0, show(synced));
});
