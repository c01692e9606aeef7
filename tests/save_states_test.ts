/**
 * The save pipeline under the git states people really have, on real git with bare remotes: a
 * detached HEAD and every operation under way are refused before anything is written (and the
 * printed way out works when pasted); an uncommitted hand edit elsewhere does not stop a save
 * onto a moved remote; every exit 3 names its cause; git's index.lock, orphaned entry files and
 * a missing identity are named; one commit can write and delete several entries.
 */
import {
  assert,
  assertEquals,
  assertMatch,
  assertNotMatch,
  assertNotStrictEquals,
  assertStrictEquals,
} from "@std/assert";
import { join } from "@std/path/posix/join";
import { gitDetail } from "../io/git.ts";
import {
  checkGitLocks,
  checkOrphans,
  checkRepoState,
  findOrphans,
  repoState,
} from "../io/save/repo_state.ts";
import { PushError } from "../io/save/publish.ts";
import { saveChanges, saveEntry } from "../io/save/save.ts";
import { runProcess } from "../io/process.ts";
import { blankEntry, type Entry } from "../core/entry/entry.ts";
import { kbCacheDir } from "../io/paths.ts";
import { shellQuote } from "../core/shell/quote.ts";
import {
  childEnv,
  cloneRemote,
  entryPath,
  entryText,
  exists,
  git,
  gitRun,
  IDENTITY,
  type Kb,
  MAIN,
  makeKb,
  overrideEnv,
  parseJson,
  pushEntryFrom,
  runAlone,
  runCli,
  type RunResult,
  show,
} from "./helpers.ts";

/** A knowledge base whose folder name holds a space and a quote, so every hint must be quoted. */
async function awkwardKb(remote = true): Promise<Kb> {
  const kb = await makeKb({ remote });
  const dir = join(kb.root, "o'brien's kb");
  await Deno.rename(kb.dir, dir);
  return { ...kb, dir, env: { ...kb.env, KB_DIR: dir } };
}

/** The awkward knowledge base's folder as sh quoting writes it. */
function quotedDir(kb: Kb): string {
  return `'${kb.root}/o'\\''brien'\\''s kb'`;
}

function add(kb: Kb, title: string, ...extra: string[]): Promise<RunResult> {
  return runCli(["add", "--title", title, "--type", "note", "--body", "Body.", ...extra], {
    env: kb.env,
  });
}

/** The indented command lines of a message. */
function commandsOf(stderr: string): string[] {
  return stderr.split("\n").filter((line) => /^ {2}(git |git-kb |\$\{VISUAL)/.test(line))
    .map((line) => line.trim());
}

/** Run a printed command line through sh, as a person pasting it would. */
function paste(command: string, kb: Kb): Promise<RunResult> {
  return gitRun(kb.root, ["-c", 'alias.x=!sh -c "$0"', "x", command]);
}

/** `git status` of the knowledge base, untracked files listed one by one. */
function status(kb: Kb): Promise<string> {
  return git(kb.dir, "status", "--porcelain", "--untracked-files=all");
}

/** Exit 1 saying nothing was written, and HEAD and the status as they were. */
async function assertNothingSaved(
  kb: Kb,
  before: { head: string; status: string },
  result: RunResult,
): Promise<void> {
  assertEquals(result.code, 1, show(result));
  assertMatch(result.stderr, /nothing was written/, show(result));
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), before.head);
  assertEquals(await status(kb), before.status);
}

Deno.test("a detached HEAD: refused before writing, nothing pushed, the pasted switch works", async () => {
  await using kb = await awkwardKb();
  await git(kb.dir, "checkout", "--quiet", "--detach");
  const before = { head: await git(kb.dir, "rev-parse", "HEAD"), status: await status(kb) };
  const result = await add(kb, "From a detached head");
  await assertNothingSaved(kb, before, result);
  assertMatch(result.stderr, /detached HEAD/, show(result));
  assertEquals(
    await git(kb.remote!, "for-each-ref", "--format=%(refname)"),
    "refs/heads/main",
    "no refs/heads/HEAD on the remote",
  );
  const [command] = commandsOf(result.stderr);
  assertEquals(command, `git -C ${quotedDir(kb)} switch main`);
  const switched = await paste(command, kb);
  assertEquals(switched.code, 0, show(switched));
  const saved = await add(kb, "Back on main", "--json");
  assertEquals(saved.code, 0, show(saved));
  assertEquals(parseJson<{ push: string }>(saved).push, "pushed");
  assertEquals(
    await git(kb.remote!, "rev-parse", "main"),
    await git(kb.dir, "rev-parse", "HEAD"),
  );
});

Deno.test("a side branch that tracks nothing: refused before writing, nothing pushed", async () => {
  await using kb = await awkwardKb();
  await git(kb.dir, "checkout", "--quiet", "-b", "feature");
  const before = { head: await git(kb.dir, "rev-parse", "HEAD"), status: await status(kb) };
  const result = await add(kb, "From a side branch");
  await assertNothingSaved(kb, before, result);
  assertMatch(result.stderr, /on branch feature, which tracks no remote branch/, show(result));
  assertEquals(await git(kb.remote!, "for-each-ref", "--format=%(refname)"), "refs/heads/main");
  const [command] = commandsOf(result.stderr);
  assertEquals(command, `git -C ${quotedDir(kb)} switch main`);
  await git(kb.dir, "push", "--quiet", "-u", "origin", "feature");
  const tracked = await add(kb, "On a branch that tracks one of its own");
  assertEquals(tracked.code, 0, show(tracked));
});

/** Put the repo into the middle of `operation` by a real conflicting command. */
async function startOperation(kb: Kb, operation: string): Promise<void> {
  const path = await entryPath(kb.dir, "kb-7q2mx");
  const file = join(kb.dir, path);
  const original = await Deno.readTextFile(file);
  const commitTitle = async (title: string) => {
    await Deno.writeTextFile(file, original.replace(/^title: .*$/m, `title: ${title}`));
    await git(kb.dir, "commit", "--quiet", "-am", title);
  };
  if (operation === "bisect") {
    await git(kb.dir, "bisect", "start");
    return;
  }
  await git(kb.dir, "switch", "--quiet", "-c", "side");
  await commitTitle("Side title");
  await git(kb.dir, "switch", "--quiet", "main");
  await commitTitle("Main title");
  const attempts: Record<string, string[]> = {
    rebase: ["rebase", "side"],
    merge: ["merge", "side"],
    "cherry-pick": ["cherry-pick", "side"],
    revert: ["revert", "--no-edit", "HEAD~1"],
  };
  if (operation === "conflict") {
    await Deno.writeTextFile(file, original.replace(/^title: .*$/m, "title: Stashed title"));
    await git(kb.dir, "stash");
    await commitTitle("Committed title");
    const popped = await gitRun(kb.dir, ["stash", "pop"]);
    assertNotStrictEquals(popped.code, 0, show(popped));
    return;
  }
  if (operation === "revert") await commitTitle("Later title");
  const attempt = await gitRun(kb.dir, attempts[operation]);
  assertNotStrictEquals(
    attempt.code,
    0,
    `${operation} should stop on a conflict: ${show(attempt)}`,
  );
}

Deno.test("a rebase, merge, cherry-pick, revert, bisect or conflict under way: refused, with a way out", async (t) => {
  const cases: { operation: string; says: RegExp; way: RegExp }[] = [
    { operation: "rebase", says: /middle of a rebase/, way: / rebase --abort$/ },
    { operation: "merge", says: /middle of a merge/, way: / merge --abort$/ },
    { operation: "cherry-pick", says: /middle of a cherry-pick/, way: / cherry-pick --abort$/ },
    { operation: "revert", says: /middle of a revert/, way: / revert --abort$/ },
    { operation: "bisect", says: /middle of a git bisect/, way: / bisect reset$/ },
    { operation: "conflict", says: /unresolved conflicts in entries\/kb-7q2mx-/, way: / add -- / },
  ];
  for (const { operation, says, way } of cases) {
    await t.step(operation, async () => {
      await using kb = await awkwardKb();
      await startOperation(kb, operation);
      const before = { head: await git(kb.dir, "rev-parse", "HEAD"), status: await status(kb) };
      const remoteHead = await git(kb.remote!, "rev-parse", "main");
      const result = await add(kb, `During a ${operation}`);
      await assertNothingSaved(kb, before, result);
      assertMatch(result.stderr.split("\n")[0], says, show(result));
      assertEquals(await git(kb.remote!, "rev-parse", "main"), remoteHead, "nothing pushed");
      const commands = commandsOf(result.stderr);
      const escape = commands.find((command) => way.test(command));
      assert(escape, show(result));
      assertEquals((await repoState(kb.dir)).state, operation);
      assertEquals((await checkRepoState(kb.dir)).level, "error");
      const pasted = await paste(escape, kb);
      assertEquals(pasted.code, 0, `${escape}\n${show(pasted)}`);
      if (operation !== "conflict") {
        assertEquals((await repoState(kb.dir)).state, "branch");
        const saved = await add(kb, `After the ${operation}`);
        assertEquals(saved.code, 0, show(saved));
      }
    });
  }
});

Deno.test("a rebase, merge, cherry-pick or revert stopped on a conflict: the printed way to finish marks the file resolved, so it works once the markers are fixed", async (t) => {
  for (const operation of ["rebase", "merge", "cherry-pick", "revert"]) {
    await t.step(operation, async () => {
      await using kb = await awkwardKb();
      await startOperation(kb, operation);
      const path = (await git(kb.dir, "diff", "--name-only", "--diff-filter=U")).trim();
      const result = await add(kb, `During a ${operation}`);
      assertEquals(result.code, 1, show(result));
      assertMatch(result.stderr.split("\n")[0], /, with unresolved conflicts in entries\//);
      const finish = commandsOf(result.stderr).find((command) => command.endsWith(" --continue"));
      if (!finish) throw new Error(`no --continue printed: ${show(result)}`);
      // The person fixes the markers (here: takes the side coming in), then pastes the line.
      await git(kb.dir, "checkout", "--theirs", "--", path);
      const pasted = await paste(`export GIT_EDITOR=true; ${finish}`, kb);
      assertEquals(pasted.code, 0, `${finish}\n${show(pasted)}`);
      assertEquals((await repoState(kb.dir)).state, "branch");
      const saved = await add(kb, `After the ${operation}`);
      assertEquals(saved.code, 0, show(saved));
    });
  }
});

Deno.test("an unresolved conflict in an entry whose file name git quotes is named by its real path; the printed git add works", async () => {
  await using kb = await awkwardKb();
  const path = 'entries/kb-7q2mx-rotación "npm".md';
  await git(kb.dir, "mv", await entryPath(kb.dir, "kb-7q2mx"), path);
  await git(kb.dir, "commit", "--quiet", "-m", "kb: rename by hand");
  await startOperation(kb, "conflict");
  const result = await add(kb, "During a conflict");
  assertEquals(result.code, 1, show(result));
  assert(result.stderr.includes(`unresolved conflicts in ${path};`), show(result));
  const marked = commandsOf(result.stderr).find((command) => / add -- /.test(command));
  if (!marked) throw new Error(`no git add printed: ${show(result)}`);
  const pasted = await paste(marked, kb);
  assertEquals(pasted.code, 0, `${marked}\n${show(pasted)}`);
  assertEquals(await git(kb.dir, "diff", "--name-only", "--diff-filter=U"), "");
});

Deno.test("an uncommitted hand edit elsewhere does not stop a save onto a moved remote", async () => {
  await using kb = await makeKb({ remote: true });
  const other = await cloneRemote(kb);
  await pushEntryFrom(other, "kb-0th3r", "Someone else pushed this first");
  const handEdited = join(kb.dir, await entryPath(kb.dir, "kb-r4b9t"));
  const edited = (await Deno.readTextFile(handEdited)) + "\nA paragraph typed by hand.\n";
  await Deno.writeTextFile(handEdited, edited);

  const result = await add(kb, "Saved beside a hand edit", "--json");
  assertEquals(result.code, 0, show(result));
  const saved = parseJson<{ id: string; push: string; commit: string }>(result);
  assertEquals(saved.push, "rebased-and-pushed");
  assertEquals(await git(kb.remote!, "rev-parse", "main"), saved.commit);
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), saved.commit);
  const subjects = await git(kb.remote!, "log", "-2", "--format=%s %an", "main");
  assertMatch(subjects, new RegExp(`kb: add ${saved.id}: Saved beside a hand edit Test Author`));
  assertMatch(subjects, /kb-0th3r/);
  assert(await exists(join(kb.dir, await entryPath(kb.dir, "kb-0th3r"))));
  assertEquals(await Deno.readTextFile(handEdited), edited, "the hand edit is untouched");
  assertMatch(await git(kb.dir, "status", "--porcelain"), /^M entries\/kb-r4b9t-/);
});

Deno.test("exit 3 names the cause: a dirty file the remote changed, a real conflict", async (t) => {
  await using kb = await awkwardKb();
  const other = await cloneRemote(kb);
  const path = await entryPath(other, "kb-7q2mx");
  const retitle = async (dir: string, title: string) => {
    const text = await Deno.readTextFile(join(dir, path));
    await Deno.writeTextFile(join(dir, path), text.replace(/^title: .*$/m, `title: ${title}`));
  };

  await t.step("a hand edit in a file the remote changed: named, nothing lost", async () => {
    await retitle(other, "Their wording");
    await git(other, "commit", "--quiet", "-am", "their wording");
    await git(other, "push", "--quiet", "origin", "HEAD:main");
    const mine = join(kb.dir, path);
    await Deno.writeTextFile(mine, (await Deno.readTextFile(mine)) + "\nMy own paragraph.\n");
    const result = await add(kb, "Blocked by my own edit");
    assertEquals(result.code, 3, show(result));
    assertMatch(result.stderr, new RegExp(`uncommitted changes to ${path}`), show(result));
    assertNotMatch(result.stderr, /changed the same entries/, show(result));
    assertMatch(await Deno.readTextFile(mine), /My own paragraph\.\n$/);
    assertMatch(await git(kb.dir, "log", "-1", "--format=%s"), /Blocked by my own edit/);
    assertEquals(commandsOf(result.stderr), [`git-kb sync --kb ${quotedDir(kb)}`]);
    const synced = await runCli(["sync", "--kb", kb.dir], { env: kb.env });
    assertEquals(synced.code, 1, show(synced));
    assertMatch(synced.stderr, /uncommitted/, "the sync it points at names what is in the way");
    assertMatch(await Deno.readTextFile(mine), /My own paragraph\.\n$/);
    await git(kb.dir, "checkout", "--", path);
  });

  await t.step("a real conflict: the entry id and path, and commands one per line", async () => {
    await git(other, "pull", "--quiet", "--ff-only");
    await retitle(other, "Their second wording");
    await git(other, "commit", "--quiet", "-am", "their second wording");
    await git(other, "push", "--quiet", "origin", "HEAD:main");
    const result = await runCli(["edit", "kb-7q2mx", "--title", "Our wording"], { env: kb.env });
    assertEquals(result.code, 3, show(result));
    assertMatch(
      result.stderr,
      new RegExp(`changed the same entries in another way: kb-7q2mx \\(${path}\\)`),
    );
    const quoted = quotedDir(kb);
    assertEquals(commandsOf(result.stderr), [`git-kb sync --kb ${quoted}`]);
    assertEquals(await git(kb.dir, "status", "--porcelain"), "");
    assertEquals((await repoState(kb.dir)).state, "branch");
    const synced = await runCli(["sync", "--kb", kb.dir], { env: kb.env });
    assertEquals(synced.code, 4, `the sync it points at reports the conflict\n${show(synced)}`);
    assertMatch(synced.stderr, /kb-7q2mx/);
  });
});

/** Run `action` with this process's TMPDIR set to the knowledge base's, so its cache goes there. */
async function inKbTmp<T>(kb: Kb, action: () => Promise<T>): Promise<T> {
  try {
    using _tmpdir = overrideEnv({ TMPDIR: kb.tmp });
    return await action();
  } finally {
    await Deno.remove(kbCacheDir(kb.dir), { recursive: true }).catch(() => {});
  }
}

function newEntry(id: string, title: string, extra: Partial<Entry> = {}): Entry {
  return { ...blankEntry(id, "2026-01-01"), title, type: "note", body: "Body.\n", ...extra };
}

Deno.test("a push to a remote that never answers times out, and says which call", async (t) => {
  if (await runAlone(t)) return;
  await using kb = await makeKb({ remote: true });
  await git(kb.dir, "config", "protocol.ext.allow", "always");
  await git(kb.dir, "remote", "set-url", "origin", "ext::sleep 60");
  const error = await inKbTmp(kb, () =>
    saveEntry({
      kbDir: kb.dir,
      entry: newEntry("kb-t1me0", "Timed out"),
      path: "entries/kb-t1me0-timed-out.md",
      message: "kb: add kb-t1me0: Timed out",
      networkTimeoutMs: 1_500,
    })).then(() => undefined, (caught) => caught);
  assert(error instanceof PushError, String(error));
  assertMatch(
    error.message,
    /git push --porcelain (--force-with-lease=\S+ )?origin refs\/heads\/main:refs\/heads\/main did not finish within 2 s and was stopped/,
  );
  assertEquals(error.commands, [`git-kb sync --kb ${kb.dir}`]);
  assertMatch(await git(kb.dir, "log", "-1", "--format=%s"), /kb-t1me0/);
});

Deno.test("a save that could not reach the remote prints a line that finishes it after another machine pushed", async () => {
  await using kb = await makeKb({ remote: true });
  const env = { ...kb.env, KB_CLI: `deno run -A ${shellQuote(MAIN)}` };
  const away = `${kb.remote}.away`;
  await Deno.rename(kb.remote!, away);
  const offline = await runCli(
    ["add", "--title", "Saved offline", "--type", "note", "--body", "Body."],
    { env },
  );
  await Deno.rename(away, kb.remote!);
  assertEquals(offline.code, 3, show(offline));
  assertMatch(offline.stderr, /The commit is kept; to finish, run:\n {2}\S.*\n$/, show(offline));
  const finish = offline.stderr.trimEnd().split("\n").at(-1)!.trim();
  const other = await cloneRemote(kb);
  await pushEntryFrom(other, "kb-0th3r", "Pushed from another machine meanwhile");
  const pasted = await runProcess("/bin/sh", ["-c", finish], { env: childEnv(env) });
  assertEquals(pasted.code, 0, `${finish}\n${pasted.stderr}`);
  const pushed = await git(kb.remote!, "log", "--format=%s", "main");
  assertMatch(pushed, /Saved offline/);
  assertMatch(pushed, /Pushed from another machine meanwhile/);
});

Deno.test("git's index.lock: the save refuses and names it; the message survives git's stderr", async () => {
  await using kb = await awkwardKb(false);
  const lock = join(kb.dir, ".git", "index.lock");
  await Deno.writeTextFile(lock, "");
  const before = { head: await git(kb.dir, "rev-parse", "HEAD"), status: await status(kb) };
  const result = await add(kb, "Behind an index lock");
  await assertNothingSaved(kb, before, result);
  assert(result.stderr.includes(lock), show(result));
  assert(result.stderr.includes(`rm -f '${kb.root}/o'\\''brien'\\''s kb/.git/index.lock'`));
  const finding = await checkGitLocks(kb.dir);
  assertEquals(finding.level, "error");
  assert(finding.message.includes(lock));
  await Deno.remove(lock);
  assertEquals((await checkGitLocks(kb.dir)).level, "ok");

  const stderr = [
    "fatal: Unable to create '/kb/.git/index.lock': File exists.",
    "",
    "Another git process seems to be running in this repository, e.g.",
    "an editor opened by 'git commit'. Please make sure all processes",
    "are terminated then try again. If it still fails, a git process",
    "may have crashed in this repository earlier:",
    "remove the file manually to continue.",
  ].join("\n");
  const detail = gitDetail(stderr);
  assertMatch(detail, /^fatal: Unable to create '\/kb\/\.git\/index\.lock'/);
  assertMatch(detail, /remove the file manually to continue\.$/);
});

Deno.test("orphans: the next save names them with commands that commit them when pasted", async () => {
  await using kb = await makeKb();
  const orphan = "entries/kb-0rph1-left-by-a-killed-save.md";
  await Deno.writeTextFile(
    join(kb.dir, orphan),
    entryText({ id: "kb-0rph1", title: "Left by a killed save", body: "Orphaned.\n" }),
  );
  assertEquals(await findOrphans(kb.dir), [{ status: "??", path: orphan }]);
  assertEquals((await checkOrphans(kb.dir)).level, "warn");
  const result = await add(kb, "Saved beside an orphan");
  assertEquals(result.code, 0, show(result));
  assertMatch(result.stderr, /^warning: 1 entry file under entries\/ is not committed/m);
  assert(result.stderr.includes(`git -C ${kb.dir} add -- ${orphan}`), show(result));
  assertEquals(
    await git(kb.dir, "ls-files", "--", orphan),
    "",
    "a save commits only its own file",
  );

  const printed = result.stderr.slice(result.stderr.indexOf("commit them: ") + 13).trim();
  const pasted = await runProcess("sh", ["-c", printed], { env: { ...IDENTITY } });
  assertEquals(pasted.code, 0, pasted.stderr);
  assertEquals(await git(kb.dir, "ls-files", "--", orphan), orphan);
  assertEquals(await findOrphans(kb.dir), []);
});

Deno.test("changes git's index alone holds (a save that could not unstage them): sync and doctor name them with a reset that works pasted, never a commit", async () => {
  await using kb = await makeKb({ remote: true });
  // What a save leaves when git cannot write its index again: its files put back as they were (a
  // new entry's removed, an edited one's text as committed) while the index still holds its own.
  const gone = "entries/kb-st4g1-staged-then-put-back.md";
  const entry = entryText({ id: "kb-st4g1", title: "Staged then put back", body: "Gone.\n" });
  await Deno.writeTextFile(join(kb.dir, gone), entry);
  const kept = await entryPath(kb.dir, "kb-2yb6n");
  const text = await Deno.readTextFile(join(kb.dir, kept));
  await Deno.writeTextFile(join(kb.dir, kept), `${text}A line of the save's.\n`);
  await git(kb.dir, "add", "--", gone, kept);
  await Deno.remove(join(kb.dir, gone));
  await Deno.writeTextFile(join(kb.dir, kept), text);

  const unstage = `git -C ${kb.dir} reset --quiet -- ${kept} ${gone}`;
  const synced = await runCli(["sync"], { env: kb.env });
  assertEquals(synced.code, 0, show(synced));
  assertMatch(
    synced.stderr,
    /^warning: 2 changes under entries\/ staged in git's index that no file holds \(.*\), which a commit would record; unstage: /m,
  );
  assert(synced.stderr.includes(unstage), show(synced));
  const doctor = await runCli(["doctor", "--offline"], { env: kb.env });
  assert(doctor.stdout.includes(`fix: ${unstage}`), show(doctor));
  for (const said of [synced.stderr, doctor.stdout]) {
    assert(!/commit hand edits|commit orphaned entries|not committed/.test(said), said);
  }
  const pasted = await runProcess("sh", ["-c", unstage], {});
  assertEquals(pasted.code, 0, pasted.stderr);
  assertEquals(await git(kb.dir, "status", "--porcelain"), "");
});

Deno.test("orphans a teammate's .gitignore ignores are named too, with a git add that commits them", async () => {
  await using kb = await makeKb();
  await Deno.writeTextFile(join(kb.dir, ".gitignore"), "entries/\n");
  await git(kb.dir, "add", ".gitignore");
  await git(kb.dir, "commit", "--quiet", "-m", "ignore entries/");
  const orphan = "entries/kb-0rph2-written-by-hand.md";
  await Deno.writeTextFile(
    join(kb.dir, orphan),
    entryText({ id: "kb-0rph2", title: "Written by hand", body: "Never committed.\n" }),
  );
  const doctor = await runCli(["doctor", "--offline"], { env: kb.env });
  assert(!doctor.stdout.includes("no entry file waits for its first commit"), show(doctor));
  const result = await add(kb, "Saved beside an ignored orphan");
  assertEquals(result.code, 0, show(result));
  assertMatch(
    result.stderr,
    /^warning: 1 entry file under entries\/ is not committed .*, ignored by an ignore rule;/m,
  );

  const printed = result.stderr.slice(result.stderr.indexOf("commit them: ") + 13).trim();
  const pasted = await runProcess("sh", ["-c", printed], { env: { ...IDENTITY } });
  assertEquals(pasted.code, 0, pasted.stderr);
  assertEquals(await git(kb.dir, "ls-files", "--", orphan), orphan);
  assertEquals(await findOrphans(kb.dir), []);
});

Deno.test("no git identity: the save says it committed under the fallback; with one, it does not", async () => {
  await using kb = await makeKb();
  const anonymous = { ...kb.env };
  for (const name of Object.keys(anonymous)) {
    if (name.startsWith("GIT_AUTHOR") || name.startsWith("GIT_COMMITTER")) delete anonymous[name];
  }
  const [bare, named] = await Promise.all([
    runCli(["add", "--title", "No identity", "--type", "note", "--json"], { env: anonymous }),
    add(kb, "With identity", "--json"),
  ]);
  assertEquals(bare.code, 0, show(bare));
  assertMatch(
    bare.stderr,
    /^warning: git has no user\.name\/user\.email, so the commit is authored git-kb <git-kb@localhost>/,
  );
  assertEquals(parseJson<{ warnings: string[] }>(bare).warnings.length, 1);
  assertEquals(named.code, 0, show(named));
  assertEquals(named.stderr, "");
  assertEquals(parseJson<{ warnings: string[] }>(named).warnings, []);
});

Deno.test("saveChanges: two new entries (one linking the other) and a deletion in one commit", async (t) => {
  if (await runAlone(t)) return;
  await using kb = await makeKb({ remote: true });
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const doomed = await entryPath(kb.dir, "kb-o2x9c");
  const doomedText = await Deno.readTextFile(join(kb.dir, doomed));
  const result = await inKbTmp(kb, () =>
    saveChanges({
      kbDir: kb.dir,
      message: "kb: import two, drop one",
      changes: [
        { path: "entries/kb-mu1t1-first.md", entry: newEntry("kb-mu1t1", "First") },
        {
          path: "entries/kb-mu1t2-second.md",
          entry: newEntry("kb-mu1t2", "Second", { links: [{ rel: "related", to: "kb-mu1t1" }] }),
        },
        { path: doomed, previousText: doomedText },
      ],
    }));
  assertEquals(result.push, "pushed");
  assertEquals(await git(kb.dir, "rev-parse", "HEAD~1"), head, "one commit");
  assertEquals(
    await git(kb.dir, "show", "--name-status", "--format=", "HEAD"),
    [`D\t${doomed}`, "A\tentries/kb-mu1t1-first.md", "A\tentries/kb-mu1t2-second.md"].sort()
      .join("\n"),
  );
  assertEquals(await git(kb.remote!, "rev-parse", "main"), result.commit);
  assertStrictEquals(result.index?.docCount, 46);
});

/**
 * A commit holding conflict markers in kb-7q2mx (its file first renamed to `entries/<fileName>`
 * and pushed, when given) is never pushed by a save: exit 3, the remote unchanged, and the
 * pasted steps finish.
 */
async function markersNeverPushedBySave(fileName?: string) {
  await using kb = await awkwardKb();
  let path = await entryPath(kb.dir, "kb-7q2mx");
  if (fileName) {
    await git(kb.dir, "mv", path, `entries/${fileName}`);
    await git(kb.dir, "commit", "--quiet", "-m", "kb: rename by hand");
    await git(kb.dir, "push", "--quiet", "origin", "main");
    path = `entries/${fileName}`;
  }
  const file = join(kb.dir, path);
  const original = await Deno.readTextFile(file);
  const marked = original.replace(
    /^title: .*$/m,
    "<<<<<<< HEAD\ntitle: Ours\n=======\ntitle: Theirs\n>>>>>>> theirs",
  );
  await Deno.writeTextFile(file, marked);
  await git(kb.dir, "commit", "--quiet", "-am", "a merge finished by hand, unresolved");
  const remoteBefore = await git(kb.remote!, "rev-parse", "main");
  const result = await add(kb, "Saved after a careless merge");
  assertEquals(result.code, 3, show(result));
  assertMatch(
    result.stderr,
    new RegExp(`${path.replace(".", "\\.")} still holds conflict markers`),
  );
  assertEquals(await git(kb.remote!, "rev-parse", "main"), remoteBefore, "nothing was pushed");
  assertMatch(await git(kb.dir, "log", "-1", "--format=%s"), /Saved after a careless merge/);

  const commands = commandsOf(result.stderr);
  assertMatch(commands[0], /EDITOR/);
  await Deno.writeTextFile(file, original);
  for (const command of commands.slice(1, -1)) {
    const pasted = await paste(command, kb);
    assertEquals(pasted.code, 0, `${command}\n${show(pasted)}`);
  }
  assertEquals(commands.at(-1), `git-kb sync --kb ${quotedDir(kb)}`);
  const synced = await runCli(["sync", "--kb", kb.dir], { env: kb.env });
  assertEquals(synced.code, 0, show(synced));
  assertEquals(await git(kb.remote!, "rev-parse", "main"), await git(kb.dir, "rev-parse", "HEAD"));
}

Deno.test("a commit holding conflict markers is never pushed by a save: exit 3, the remote unchanged, the pasted steps finish", async () => {
  await markersNeverPushedBySave();
});

Deno.test("conflict markers in an entry whose file name git quotes are never pushed by a save either", async () => {
  await markersNeverPushedBySave('kb-7q2mx-rotación "npm".md');
});

Deno.test("a push the remote refuses after the save was replayed onto a teammate's names the commit on the branch", async () => {
  await using kb = await makeKb({ remote: true });
  await pushEntryFrom(await cloneRemote(kb), "kb-t3mm8", "A teammate's entry");
  // The remote refuses every push from here on, as a protected branch does.
  const hook = join(kb.remote!, "hooks", "pre-receive");
  await Deno.writeTextFile(hook, "#!/bin/sh\necho 'main is protected' >&2\nexit 1\n");
  await Deno.chmod(hook, 0o755);
  const result = await add(kb, "Saved onto a moved remote");
  assertEquals(result.code, 3, show(result));
  assertMatch(result.stderr, /pre-receive hook declined\); main is protected/);
  const head = await git(kb.dir, "rev-parse", "HEAD");
  assertMatch(await git(kb.dir, "log", "-1", "--format=%s"), /Saved onto a moved remote/);
  assertMatch(await git(kb.dir, "log", "--format=%s"), /A teammate's entry/, "replayed onto it");
  assertMatch(result.stderr, new RegExp(`locally in ${head.slice(0, 7)}, but it is not pushed`));
});

Deno.test("add and edit --json at exit 3 print what they committed, with push not-pushed", async () => {
  await using kb = await makeKb({ remote: true });
  const hook = join(kb.remote!, "hooks", "pre-receive");
  await Deno.writeTextFile(hook, "#!/bin/sh\necho 'main is protected' >&2\nexit 1\n");
  await Deno.chmod(hook, 0o755);
  const added = await add(kb, "Committed but not pushed", "--json");
  assertEquals(added.code, 3, show(added));
  assertMatch(added.stderr, /but it is not pushed/);
  const report = parseJson<{ id: string; path: string; commit: string; push: string }>(added);
  assertEquals(report.commit, await git(kb.dir, "rev-parse", "HEAD"));
  assertEquals(report.push, "not-pushed");
  assert(await exists(join(kb.dir, report.path)), report.path);
  assertMatch(report.path, new RegExp(`^entries/${report.id}-committed-but-not-pushed\\.md$`));

  const edited = await runCli(["edit", report.id, "--body", "Changed.", "--json"], {
    env: kb.env,
  });
  assertEquals(edited.code, 3, show(edited));
  const again = parseJson<{ id: string; path: string; commit: string; push: string }>(edited);
  assertEquals(again, {
    id: report.id,
    path: report.path,
    commit: await git(kb.dir, "rev-parse", "HEAD"),
    push: "not-pushed",
  });
});

Deno.test("a remote-tracking HEAD naming a branch never fetched does not send the save to that branch", async () => {
  await using kb = await makeKb({ remote: true });
  await git(kb.dir, "branch", "--unset-upstream");
  await git(kb.dir, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/nosuch");
  const result = await add(kb, "Past a dangling origin HEAD");
  assertEquals(result.code, 0, show(result));
  assertEquals(await git(kb.remote!, "rev-parse", "main"), await git(kb.dir, "rev-parse", "HEAD"));
});
