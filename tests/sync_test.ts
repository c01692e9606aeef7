/**
 * `git-kb sync` on real git: a bare remote and two clones as two machines, each with its own
 * HOME and cache. What one machine saves, the other's sync brings in (and `get`/`search` find);
 * edits of different entries both land; edits of the same entry stop with a conflict that loses
 * nothing and that the printed commands finish; an unreachable or silent remote changes nothing;
 * every git state a save refuses is refused the same way.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { flagsFor } from "../app/permissions.ts";
import { shellCommand, shellQuote } from "../core/shell/quote.ts";
import { displaySafe } from "../core/text/display.ts";
import { runProcess } from "../io/process.ts";
import { withLock } from "../io/save/lock.ts";
import { saveLockPath } from "../io/save/repo_state.ts";
import { syncKb, SyncOfflineError, type SyncReport } from "../io/sync/sync.ts";
import {
  cacheRootOf,
  childEnv,
  cloneRemote,
  denoDir,
  entryPath,
  entryText,
  git,
  IDENTITY,
  type Kb,
  MAIN,
  makeKb,
  overrideEnv,
  parseJson,
  pushAttributes,
  pushEntryFrom,
  runAlone,
  runCli,
  type RunResult,
  show,
  snapshot,
} from "./helpers.ts";

/** A clone of the knowledge base's remote with a HOME, cache and identity of its own. */
interface Machine {
  dir: string;
  env: Record<string, string>;
}

/** Machine A is the knowledge base itself; this makes machine `name`, a clone of its remote. */
async function machine(kb: Kb, name: string): Promise<Machine> {
  const dir = join(kb.root, name);
  await git(kb.root, "clone", "--quiet", kb.remote!, dir);
  const own = Object.fromEntries(
    ["tmp", "home", "config"].map((part) => [part, join(kb.root, `${name}-${part}`)]),
  );
  await Promise.all(Object.values(own).map((path) => Deno.mkdir(path)));
  return {
    dir,
    env: {
      ...kb.env,
      TMPDIR: own.tmp,
      HOME: own.home,
      XDG_CONFIG_HOME: own.config,
      KB_DIR: dir,
      GIT_AUTHOR_NAME: `Author on ${name}`,
      GIT_COMMITTER_NAME: `Committer on ${name}`,
    },
  };
}

/** Machine A as a {@link Machine}. */
function machineA(kb: Kb): Machine {
  return { dir: kb.dir, env: kb.env };
}

function cli(on: Machine, ...args: string[]): Promise<RunResult> {
  return runCli(args, { env: on.env });
}

/** What `sync --json` printed, after checking it exited 0. */
interface Report {
  outcome: string;
  upstream?: string;
  rebased: boolean;
  incoming: { commits: number; added: Named[]; changed: Named[]; removed: Named[] };
  outgoing: { commits: number; added: Named[]; changed: Named[]; removed: Named[] };
  index: { docCount: number };
}

interface Named {
  id: string;
  title: string;
  path: string;
}

async function sync(on: Machine): Promise<Report> {
  const result = await cli(on, "sync", "--json");
  assertEquals(result.code, 0, show(result));
  return parseJson<Report>(result);
}

/** Edit `id`'s body with the remote out of reach, as a machine offline would: committed, exit 3. */
async function editOffline(on: Machine, id: string, body: string): Promise<void> {
  const url = await git(on.dir, "remote", "get-url", "origin");
  await git(on.dir, "remote", "set-url", "origin", join(on.dir, "..", "nowhere.git"));
  const edited = await cli(on, "edit", id, "--body", body);
  await git(on.dir, "remote", "set-url", "origin", url);
  assertEquals(edited.code, 3, show(edited));
}

/** HEAD, git's index and every file of the work tree. */
async function state(dir: string) {
  return {
    head: await git(dir, "rev-parse", "HEAD"),
    staged: await git(dir, "ls-files", "-s"),
    status: await git(dir, "status", "--porcelain"),
    files: await snapshot(dir, [".git"]),
  };
}

/** The commands a message lists: its indented lines at the end. */
function commandsOf(stderr: string): string[] {
  const lines = stderr.trimEnd().split("\n");
  const commands: string[] = [];
  while (lines.length && lines.at(-1)!.startsWith("  ")) commands.unshift(lines.pop()!.trim());
  return commands;
}

const ENTRY = "kb-7q2mx";

Deno.test("A adds an entry; B syncs and finds it with get and search", async () => {
  await using kb = await makeKb({ remote: true });
  const [a, b] = [machineA(kb), await machine(kb, "b")];
  const added = await cli(
    a,
    "add",
    "--title",
    "Zanzibar ferry timetable",
    "--type",
    "note",
    "--body",
    "The morning ferry leaves at seven.",
    "--json",
  );
  assertEquals(added.code, 0, show(added));
  const { id } = parseJson<{ id: string }>(added);
  const before = await cli(b, "get", id);
  assertEquals(before.code, 1, "B does not have it before syncing");

  const report = await sync(b);
  assertEquals(report.outcome, "synced");
  assertEquals(report.upstream, "origin/main");
  assertEquals(report.incoming.commits, 1);
  assertEquals(report.incoming.added.map((entry) => [entry.id, entry.title]), [
    [id, "Zanzibar ferry timetable"],
  ]);
  assertEquals([report.incoming.changed, report.incoming.removed, report.outgoing.commits], [
    [],
    [],
    0,
  ]);
  assertEquals(report.index.docCount, 46);
  const got = await cli(b, "get", id);
  assertEquals(got.code, 0, show(got));
  assert(got.stdout.includes("The morning ferry leaves at seven."));
  const found = await cli(b, "search", "zanzibar ferry", "--json");
  assert(found.stdout.includes(id), show(found));

  const text = await cli(b, "sync");
  assertEquals(text.code, 0, show(text));
  assert(text.stdout.startsWith("Already in step with origin/main"), text.stdout);
});

Deno.test("both machines edit different entries: both land, and each sync names the other's", async () => {
  await using kb = await makeKb({ remote: true });
  const [a, b] = [machineA(kb), await machine(kb, "b")];
  const edited = await cli(a, "edit", ENTRY, "--body", "Edited on A.");
  assertEquals(edited.code, 0, show(edited));
  const other = (await git(b.dir, "ls-files", "entries")).split("\n")
    .map((path) => /entries\/(kb-[0-9a-z]{5})-/.exec(path)![1]).find((id) => id !== ENTRY)!;
  await editOffline(b, other, "Edited on B.");

  const fromB = await cli(b, "sync");
  assertEquals(fromB.code, 0, show(fromB));
  assert(fromB.stdout.includes("replayed on top"), fromB.stdout);
  assert(new RegExp(`^  ~ ${ENTRY} "`, "m").test(fromB.stdout), fromB.stdout);
  assert(new RegExp(`^Went out: 1 commit\\n  ~ ${other} "`, "m").test(fromB.stdout), fromB.stdout);
  assertEquals(await git(b.dir, "rev-parse", "HEAD"), await git(kb.remote!, "rev-parse", "main"));
  assertEquals(await git(b.dir, "log", "-1", "--format=%an"), "Author on b", "the author is kept");

  const fromA = await sync(a);
  assertEquals(fromA.incoming.changed.map((entry) => entry.id), [other]);
  for (const on of [a, b]) {
    const both = await cli(on, "get", ENTRY, other);
    assert(
      both.stdout.includes("Edited on A.") && both.stdout.includes("Edited on B."),
      show(both),
    );
  }
});

Deno.test("what went out is marked as what came in: added +, changed ~, removed -", async () => {
  await using kb = await makeKb({ remote: true });
  const files = (await git(kb.dir, "ls-files", "entries")).split("\n");
  const [changed, removed] = files.slice(0, 2);
  const idOf = (path: string) => /entries\/(kb-[0-9a-z]{5})-/.exec(path)![1];
  await Deno.writeTextFile(
    join(kb.dir, "entries", "kb-new01-new-note.md"),
    entryText({ id: "kb-new01", title: "New note", body: "New.\n" }),
  );
  await Deno.writeTextFile(
    join(kb.dir, changed),
    (await Deno.readTextFile(join(kb.dir, changed))) + "One more line.\n",
  );
  await git(kb.dir, "rm", "--quiet", "--", removed);
  await git(kb.dir, "add", "-A");
  await git(kb.dir, "commit", "--quiet", "-m", "by hand");
  const synced = await cli(machineA(kb), "sync");
  assertEquals(synced.code, 0, show(synced));
  const went = synced.stdout.split("\n").filter((line) => /^ {2}[+~•-] /.test(line));
  assertEquals(went.map((line) => line.slice(0, 13)), [
    "  + kb-new01 ",
    `  ~ ${idOf(changed)} `,
    `  - ${idOf(removed)} `,
  ]);
  assertMatch(synced.stdout, /^Went out: 1 commit$/m);
});

/**
 * Both machines edit {@link ENTRY} (its file first renamed to `entries/<fileName>` and pushed, when
 * given): B's sync stops at the conflict, naming it and changing nothing, and its printed steps,
 * pasted one by one, finish it with both sides' words.
 */
async function conflictFinishedByPrintedSteps(fileName?: string) {
  await using kb = await makeKb({ remote: true });
  const a = machineA(kb);
  let path = await entryPath(kb.dir, ENTRY);
  if (fileName) {
    await git(kb.dir, "mv", path, `entries/${fileName}`);
    await git(kb.dir, "commit", "--quiet", "-m", "kb: rename by hand");
    await git(kb.dir, "push", "--quiet", "origin", "main");
    path = `entries/${fileName}`;
  }
  const b = await machine(kb, "b");
  const title = /^title: (.*)$/m.exec(await Deno.readTextFile(join(kb.dir, path)))![1];
  assertEquals((await cli(a, "edit", ENTRY, "--body", "Words from A.")).code, 0);
  await editOffline(b, ENTRY, "Words from B.");
  const before = await state(b.dir);

  const stopped = await cli(b, "sync");
  assertEquals(stopped.code, 4, show(stopped));
  assert(stopped.stderr.includes(`${ENTRY} "${title}" (${displaySafe(path)})`), stopped.stderr);
  assert(
    !["\x1b", "\x07"].some((control) => stopped.stderr.includes(control)),
    "no terminal escape of a file name reaches stderr",
  );
  assertEquals(await state(b.dir), before, "nothing changed");
  const theirs = await git(b.dir, "show", `refs/git-kb/sync-theirs:${path}`);
  assert(theirs.includes("Words from A."), "the remote's version is kept");
  assert((await Deno.readTextFile(join(b.dir, path))).includes("Words from B."));

  // Follow the printed steps: the editor keeps both sides' lines, dropping the markers.
  const bin = join(kb.root, "bin");
  await Deno.mkdir(bin);
  const launcher = join(bin, "git-kb");
  const deno = [Deno.execPath(), "run", ...flagsFor("sync", cacheRootOf(b.env)), MAIN];
  await Deno.writeTextFile(launcher, `#!/bin/sh\nexec ${shellCommand(deno)} "$@"\n`);
  const editor = join(bin, "keep-both");
  await Deno.writeTextFile(
    editor,
    `#!/bin/sh\nsed -i -e '/^<<<<<<< /d' -e '/^=======$/d' -e '/^>>>>>>> /d' "$1"\n`,
  );
  await Promise.all([launcher, editor].map((file) => Deno.chmod(file, 0o755)));
  const commands = commandsOf(stopped.stderr);
  assertEquals(commands.at(-1), shellCommand(["git-kb", "sync", "--kb", b.dir]));
  const env = {
    PATH: `${bin}:${Deno.env.get("PATH")}`,
    DENO_DIR: await denoDir(),
    ...childEnv(b.env),
    EDITOR: shellQuote(editor),
  };
  for (const [at, command] of commands.entries()) {
    const ran = await runProcess("/bin/sh", ["-c", command], { cwd: kb.root, clearEnv: true, env });
    // The merge stops at the conflict, as the message says it will.
    const stops = at === 0 && ran.code === 1 && ran.stdout.includes("CONFLICT (content)");
    assert(ran.code === 0 || stops, `${command}\n${show(ran)}`);
  }
  assertEquals(await git(b.dir, "status", "--porcelain"), "");
  assertEquals(await git(b.dir, "rev-parse", "HEAD"), await git(kb.remote!, "rev-parse", "main"));
  const merged = await Deno.readTextFile(join(b.dir, path));
  assert(merged.includes("Words from A.") && merged.includes("Words from B."), merged);
  assert(!/^(<{7}|={7}|>{7})/m.test(merged), merged);

  const fromA = await sync(a);
  assertEquals(fromA.incoming.changed.map((entry) => entry.id), [ENTRY]);
  const got = await cli(a, "get", ENTRY);
  assertEquals(got.code, 0, show(got));
  assert(got.stdout.includes("Words from A.") && got.stdout.includes("Words from B."));
}

Deno.test("both machines edit the same entry: the conflict is named, nothing is lost, and the printed steps finish", async () => {
  await conflictFinishedByPrintedSteps();
});

Deno.test("a conflict in an entry whose file name git quotes (non-ASCII, quotes) is named by its real path; the steps finish", async () => {
  await conflictFinishedByPrintedSteps(`${ENTRY}-rotación "npm".md`);
});

Deno.test("a conflict in an entry whose file name holds terminal escapes names it without them; the steps finish", async () => {
  // OSC 52 writes the clipboard in many terminals.
  await conflictFinishedByPrintedSteps(`${ENTRY}-\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07.md`);
});

Deno.test("a teammate's .gitattributes asking for union merges of entries does not make two edits of one entry merge silently", async () => {
  await using kb = await makeKb({ remote: true });
  const a = machineA(kb);
  const b = await machine(kb, "b");
  await pushAttributes(kb.dir, "entries/*.md merge=union\n");
  await sync(b);
  assertEquals((await cli(a, "edit", ENTRY, "--body", "Words from A.")).code, 0);
  await editOffline(b, ENTRY, "Words from B.");
  const before = await state(b.dir);

  const stopped = await cli(b, "sync");
  assertEquals(stopped.code, 4, show(stopped));
  assert(stopped.stderr.includes(ENTRY), stopped.stderr);
  assertEquals(await state(b.dir), before, "nothing changed");
  assertEquals(await git(kb.remote!, "rev-parse", "main"), await git(a.dir, "rev-parse", "HEAD"));
  assertEquals(
    await git(b.dir, "check-attr", "merge", "--", `entries/${ENTRY}.md`),
    `entries/${ENTRY}.md: merge: text`,
  );
});

Deno.test("a teammate's .gitattributes asking for UTF-16 entries on disk does not make the entries that come in unreadable", async () => {
  await using kb = await makeKb({ remote: true });
  const b = await machine(kb, "b");
  const path = await entryPath(kb.dir, ENTRY);
  const edited = (await Deno.readTextFile(join(kb.dir, path))).replace(
    "Use this when",
    "Use this right away when",
  );
  await Deno.writeTextFile(join(kb.dir, path), edited);
  await git(kb.dir, "add", "--", path);
  await pushAttributes(kb.dir, "entries/** working-tree-encoding=UTF-16\n");

  const synced = await sync(b);
  assertEquals(synced.incoming.changed.map((entry) => entry.id), [ENTRY]);
  assertEquals(await Deno.readTextFile(join(b.dir, path)), edited, "the committed bytes on disk");
  const got = await cli(b, "get", ENTRY);
  assertEquals(got.code, 0, show(got));
  assert(got.stdout.includes("Use this right away when"), got.stdout);
  const again = await cli(b, "edit", ENTRY, "--body", "Words from B.");
  assertEquals(again.code, 0, show(again));
  assertEquals(
    await git(b.dir, "show", `HEAD:${path}`),
    (await Deno.readTextFile(join(b.dir, path))).trimEnd(),
  );
});

Deno.test("a teammate's .gitattributes naming a filter the user set up elsewhere does not change what a save commits", async () => {
  await using kb = await makeKb({ remote: true });
  const b = await machine(kb, "b");
  await Deno.writeTextFile(
    join(b.env.HOME, ".gitconfig"),
    '[filter "shout"]\n\tclean = tr a-z A-Z\n\tsmudge = cat\n',
  );
  await pushAttributes(kb.dir, "entries/** filter=shout\n");
  await sync(b);

  const edited = await cli(b, "edit", ENTRY, "--body", "Words from b.");
  assertEquals(edited.code, 0, show(edited));
  const path = await entryPath(b.dir, ENTRY);
  const committed = await git(b.dir, "show", `HEAD:${path}`);
  assert(committed.includes("Words from b."), committed);
  assertEquals(committed, (await Deno.readTextFile(join(b.dir, path))).trimEnd());
  assertEquals(await git(kb.remote!, "show", `main:${path}`), committed);
});

/**
 * A and B edit one entry; B's sync stops at the conflict; B runs the merge it prints and commits
 * without resolving; B's next sync must refuse, pushing nothing. With `attributes`, the
 * `.gitattributes` A committed first.
 */
async function markersLeftInACommit(attributes?: string): Promise<void> {
  await using kb = await makeKb({ remote: true });
  if (attributes) {
    await pushAttributes(kb.dir, attributes);
  }
  const [a, b] = [machineA(kb), await machine(kb, "b")];
  assertEquals((await cli(a, "edit", ENTRY, "--body", "Words from A.")).code, 0);
  await editOffline(b, ENTRY, "Words from B.");
  const stopped = await cli(b, "sync", "--json");
  assertEquals(stopped.code, 4, show(stopped));
  const [merge] = commandsOf(stopped.stderr);
  const data = parseJson<{ outcome: string; entries: Named[]; commands: string[] }>(stopped);
  assertEquals([data.outcome, data.entries.map((entry) => entry.id)], ["conflict", [ENTRY]]);
  assertEquals(data.commands, commandsOf(stopped.stderr));
  await runProcess("/bin/sh", ["-c", merge], { env: childEnv(b.env) });
  const path = await entryPath(b.dir, ENTRY);
  await git(b.dir, "add", "--", path);
  await git(b.dir, "commit", "--quiet", "--no-edit");
  const remote = await git(kb.remote!, "rev-parse", "main");

  const refused = await cli(b, "sync");
  assertEquals(refused.code, 1, show(refused));
  assert(refused.stderr.includes(`${path} still holds conflict markers`), refused.stderr);
  assertEquals(await git(kb.remote!, "rev-parse", "main"), remote, "nothing pushed");
}

Deno.test("a filter the knowledge base's own config sets up (git-crypt's, say) stays in force for entries", async () => {
  await using kb = await makeKb({ remote: true });
  const b = await machine(kb, "b");
  await pushAttributes(kb.dir, "entries/** filter=seal\n");
  // The first sync writes the attributes line before the filter is set up, as git-crypt unlock
  // would do later.
  await sync(b);
  await git(b.dir, "config", "--local", "filter.seal.clean", "tr a-z A-Z");
  await git(b.dir, "config", "--local", "filter.seal.smudge", "cat");

  const edited = await cli(b, "edit", ENTRY, "--body", "Words from b.");
  assertEquals(edited.code, 0, show(edited));
  const path = await entryPath(b.dir, ENTRY);
  const committed = await git(b.dir, "show", `HEAD:${path}`);
  assert(committed.includes("WORDS FROM B."), committed);
  assertEquals(committed, (await Deno.readTextFile(join(b.dir, path))).trimEnd().toUpperCase());
});
Deno.test("an entry that came in and was left out of the index is named by the sync, with doctor", async () => {
  await using kb = await makeKb({ remote: true });
  const b = await machine(kb, "b");
  const path = await entryPath(kb.dir, ENTRY);
  const twin = `entries/${ENTRY}-a-twin.md`;
  await Deno.copyFile(join(kb.dir, path), join(kb.dir, twin));
  await git(kb.dir, "add", "--", twin);
  await git(kb.dir, "commit", "--quiet", "-m", "the same id twice");
  await git(kb.dir, "push", "--quiet", "origin", "main");

  const synced = await cli(b, "sync");
  assertEquals(synced.code, 0, show(synced));
  assertMatch(
    synced.stdout,
    /^2 files under entries\/ left out of the index, not served, 1 of what came in among them \(entries\/kb-7q2mx-a-twin\.md\); why, and how to fix each: .*doctor --kb /m,
  );
  const quiet = await cli(machineA(kb), "sync");
  assertMatch(quiet.stdout, /^2 files under entries\/ left out of the index, not served; why/m);
});

Deno.test("a sync never pushes conflict markers left in a commit", async () => {
  await markersLeftInACommit();
});

Deno.test("a sync never pushes conflict markers a teammate's .gitattributes asked to be 3 characters long", async () => {
  await markersLeftInACommit("entries/** conflict-marker-size=3\n");
});

Deno.test("a sync never pushes conflict markers in an entry a teammate's .gitattributes marks binary", async () => {
  await using kb = await makeKb({ remote: true });
  await pushAttributes(kb.dir, "entries/** -diff\n");
  const b = await machine(kb, "b");
  const path = await entryPath(b.dir, ENTRY);
  const text = await Deno.readTextFile(join(b.dir, path));
  await Deno.writeTextFile(
    join(b.dir, path),
    `${text}<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> x\n`,
  );
  await git(b.dir, "commit", "--quiet", "-am", "a hand merge");
  const remote = await git(kb.remote!, "rev-parse", "main");

  const refused = await cli(b, "sync");
  assertEquals(refused.code, 1, show(refused));
  assert(refused.stderr.includes(`${path} still holds conflict markers`), refused.stderr);
  assertEquals(await git(kb.remote!, "rev-parse", "main"), remote, "nothing pushed");
});

/**
 * Conflict markers in one of hundreds of local entry files, its name one git quotes, must stop the
 * sync; with `gitconfig`, the user's own `~/.gitconfig`.
 */
async function markersAmongHundreds(gitconfig?: string): Promise<void> {
  await using kb = await makeKb({ remote: true });
  if (gitconfig) await Deno.writeTextFile(join(kb.home, ".gitconfig"), gitconfig);
  // Past 256 files, the markers are looked for in the whole tree and picked by path.
  for (let at = 0; at < 300; at++) {
    const id = `kb-m${at.toString(36).padStart(4, "0")}`;
    await Deno.writeTextFile(
      join(kb.dir, "entries", `${id}-note-${at}.md`),
      entryText({ id, title: `Imported note ${at}`, body: "Words.\n" }),
    );
  }
  const path = "entries/kb-mrk01-café.md";
  await Deno.writeTextFile(
    join(kb.dir, path),
    entryText({
      id: "kb-mrk01",
      title: "Ours",
      body: "<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> x\n",
    }),
  );
  await git(kb.dir, "add", "--", "entries");
  await git(kb.dir, "commit", "--quiet", "-m", "a merge finished by hand, unresolved");
  const remote = await git(kb.remote!, "rev-parse", "main");

  const refused = await runCli(["sync"], { env: kb.env });
  assertEquals(refused.code, 1, show(refused));
  assert(refused.stderr.includes(`${path} still holds conflict markers`), refused.stderr);
  assertEquals(await git(kb.remote!, "rev-parse", "main"), remote, "nothing pushed");
}

Deno.test("conflict markers in one of hundreds of local entry files, its name one git quotes, stop the sync", async () => {
  await markersAmongHundreds();
});

Deno.test("conflict markers stop the sync when the user's git config colours git grep's output", async () => {
  await markersAmongHundreds("[color]\n\tui = always\n");
});

Deno.test("conflict markers in a local commit stop the sync before what came in moves the branch", async () => {
  await using kb = await makeKb({ remote: true });
  const [a, b] = [machineA(kb), await machine(kb, "b")];
  assertEquals((await cli(a, "edit", ENTRY, "--body", "Edited on A.")).code, 0);
  const path = await entryPath(b.dir, "kb-3hd8w");
  const text = await Deno.readTextFile(join(b.dir, path));
  await Deno.writeTextFile(
    join(b.dir, path),
    text.replace(/^title: .*$/m, "<<<<<<< HEAD\ntitle: Ours\n=======\ntitle: Theirs\n>>>>>>> x"),
  );
  await git(b.dir, "commit", "--quiet", "-am", "a merge finished by hand, unresolved");
  const before = await state(b.dir);
  const remote = await git(kb.remote!, "rev-parse", "main");

  const refused = await cli(b, "sync");
  assertEquals(refused.code, 1, show(refused));
  assert(refused.stderr.includes(`${path} still holds conflict markers`), refused.stderr);
  assert(refused.stderr.includes("nothing was changed"), refused.stderr);
  assertEquals(await state(b.dir), before, "nothing came in: HEAD, index and files as they were");
  assertEquals(await git(kb.remote!, "rev-parse", "main"), remote, "nothing pushed");
});

Deno.test("an unreachable remote: exit 1, says so, and HEAD, index and files are unchanged", async () => {
  await using kb = await makeKb({ remote: true });
  const [a, b] = [machineA(kb), await machine(kb, "b")];
  assertEquals((await cli(a, "edit", ENTRY, "--body", "Edited on A.")).code, 0);
  await editOffline(b, "kb-3hd8w", "Edited on B.");
  await git(b.dir, "remote", "set-url", "origin", join(kb.root, "gone.git"));
  const before = await state(b.dir);
  const cache = await snapshot(cacheRootOf(b.env));

  const result = await cli(b, "sync");
  assertEquals(result.code, 1, show(result));
  assert(/cannot reach origin: .*Nothing was changed/.test(result.stderr), result.stderr);
  assertEquals(commandsOf(result.stderr), [shellCommand(["git-kb", "sync", "--kb", b.dir])]);
  assertEquals(await state(b.dir), before);
  assertEquals(await snapshot(cacheRootOf(b.env)), cache, "the index is as it was");
});

Deno.test("a remote that never answers is given up on in time, changing nothing", async () => {
  await using kb = await makeKb({ remote: true });
  await git(kb.dir, "config", "protocol.ext.allow", "always");
  await git(kb.dir, "remote", "set-url", "origin", "ext::sleep 60");
  const before = await state(kb.dir);
  const started = Date.now();
  let error: unknown;
  await syncKb(kb.dir, { networkTimeoutMs: 1_000 }).catch((caught) => error = caught);
  assert(Date.now() - started < 20_000, "sync waited for the remote");
  assert(error instanceof SyncOfflineError, String(error));
  assert(/did not finish within 1 s/.test((error as Error).message));
  assertEquals(await state(kb.dir), before);
});

Deno.test("an uncommitted change in a file the remote changed stops the sync and is kept; one elsewhere stays and the sync goes on", async () => {
  await using kb = await makeKb({ remote: true });
  const [a, b] = [machineA(kb), await machine(kb, "b")];
  assertEquals((await cli(a, "edit", ENTRY, "--body", "Edited on A.")).code, 0);
  const path = await entryPath(b.dir, ENTRY);
  const file = join(b.dir, path);
  await Deno.writeTextFile(file, (await Deno.readTextFile(file)) + "\nHand edit on B.\n");
  const before = await state(b.dir);

  const refused = await cli(b, "sync");
  assertEquals(refused.code, 1, show(refused));
  assert(refused.stderr.includes(`uncommitted changes to ${path}, which origin changed too`));
  assertEquals(await state(b.dir), before, "the hand edit and everything else are as they were");
  const commands = commandsOf(refused.stderr);
  assertEquals(commands.length, 3, refused.stderr);

  await git(b.dir, "checkout", "--", path);
  const elsewhere = join(b.dir, await entryPath(b.dir, "kb-3hd8w"));
  const hand = (await Deno.readTextFile(elsewhere)) + "\nHand edit kept.\n";
  await Deno.writeTextFile(elsewhere, hand);
  const report = await sync(b);
  assertEquals(report.incoming.changed.map((entry) => entry.id), [ENTRY]);
  assertEquals(await Deno.readTextFile(elsewhere), hand, "the other hand edit stays");
});

Deno.test("a hand edit no commit holds: the sync says it did not go out, and the line it prints sends it", async () => {
  await using kb = await makeKb({ remote: true });
  const [a, b] = [machineA(kb), await machine(kb, "b")];
  const path = await entryPath(a.dir, ENTRY);
  const file = join(a.dir, path);
  await Deno.writeTextFile(file, (await Deno.readTextFile(file)) + "\nHand edit on A.\n");
  // The printed sync runs this checkout's CLI, pasted.
  const env = { ...a.env, KB_CLI: `deno run -A ${shellQuote(MAIN)}` };
  const synced = await runCli(["sync"], { env });
  assertEquals(synced.code, 0, show(synced));
  assertMatch(synced.stdout, /^Already in step with origin\/main/m);
  const warning = synced.stderr.match(/^warning: (.*)$/m)?.[1] ?? "";
  assert(
    warning.startsWith(`1 uncommitted change under entries/ (${path}): not committed, so not sent`),
    show(synced),
  );
  const line = warning.slice(warning.indexOf("git -C "));
  const pasted = await runProcess("/bin/sh", ["-c", line], { env: childEnv(env) });
  assertEquals(pasted.code, 0, `${line}\n${show(pasted)}`);
  assertEquals((await sync(b)).incoming.changed.map((entry) => entry.id), [ENTRY]);
  assertMatch(await Deno.readTextFile(join(b.dir, path)), /Hand edit on A\./);
  const again = await runCli(["sync"], { env });
  assertEquals(again.stderr, "", "nothing left uncommitted, nothing said");
});

Deno.test("a hand edit with no git identity: the line the sync prints commits it under git-kb's stand-in, pasted", async () => {
  await using kb = await makeKb({ remote: true });
  const path = await entryPath(kb.dir, ENTRY);
  const file = join(kb.dir, path);
  await Deno.writeTextFile(file, (await Deno.readTextFile(file)) + "\nHand edit, no identity.\n");
  const env: Record<string, string> = { ...kb.env, KB_CLI: `deno run -A ${shellQuote(MAIN)}` };
  for (const name of Object.keys(IDENTITY)) delete env[name];
  const synced = await runCli(["sync"], { env });
  assertEquals(synced.code, 0, show(synced));
  const warning = synced.stderr.match(/^warning: (1 uncommitted change.*)$/m)?.[1] ?? "";
  const line = warning.slice(warning.indexOf("git -C "));
  const pasted = await runProcess("/bin/sh", ["-c", line], { env: childEnv(env) });
  assertEquals(pasted.code, 0, `${line}\n${show(pasted)}`);
  assertEquals(
    await git(kb.remote!, "log", "-1", "--format=%an <%ae>"),
    "git-kb <git-kb@localhost>",
  );
  // A new entry file no commit holds: doctor's line commits it the same way.
  const orphan = "entries/kb-0rph3-by-hand.md";
  await Deno.writeTextFile(
    join(kb.dir, orphan),
    entryText({ id: "kb-0rph3", title: "By hand", body: "Never committed.\n" }),
  );
  const doctor = await runCli(["doctor", "--offline"], { env });
  const commit = doctor.stdout.match(/not committed \(.*\); commit them: (.*)$/m)?.[1] ?? "";
  const committed = await runProcess("/bin/sh", ["-c", commit], { env: childEnv(env) });
  assertEquals(committed.code, 0, `${commit}\n${show(committed)}`);
  assertEquals(await git(kb.dir, "ls-files", "--", orphan), orphan);
});

Deno.test("no remote: NO_REMOTE, exit 0; a detached HEAD and a rebase under way are refused with the way out", async () => {
  await using kb = await makeKb();
  const env = { ...kb.env, KB_CLI: `deno run -A ${shellQuote(MAIN)}` };
  const alone = await runCli(["sync"], { env });
  assertEquals(alone.code, 0, show(alone));
  assert(alone.stdout.startsWith(`NO_REMOTE: ${kb.dir} has no git remote`), alone.stdout);
  const remote = join(kb.root, "later.git");
  await git(kb.root, "init", "--quiet", "--bare", remote);
  const line = alone.stdout.match(/in place of <url>: (.*)$/m)?.[1] ?? "";
  const pasted = await runProcess("/bin/sh", ["-c", line.replace("<url>", shellQuote(remote))], {
    cwd: kb.root,
    env: childEnv(env),
  });
  assertEquals(pasted.code, 0, `${line}\n${pasted.stderr}`);
  assert(
    (await git(remote, "for-each-ref")).includes(await git(kb.dir, "rev-parse", "HEAD")),
    "the pasted line added the remote to the knowledge base and pushed it",
  );

  await using shared = await makeKb({ remote: true });
  const on = machineA(shared);
  await git(shared.dir, "checkout", "--quiet", "--detach", "HEAD");
  const detached = await cli(on, "sync");
  assertEquals(detached.code, 1, show(detached));
  assert(detached.stderr.includes("detached HEAD"), detached.stderr);
  const [way] = commandsOf(detached.stderr);
  await runProcess("/bin/sh", ["-c", way], { env: childEnv(on.env) });
  assertEquals((await cli(on, "sync")).code, 0, "back on the branch, it syncs");

  await Deno.mkdir(join(shared.dir, ".git", "rebase-merge"));
  const rebasing = await cli(on, "sync");
  assertEquals(rebasing.code, 1, show(rebasing));
  assert(rebasing.stderr.includes("in the middle of a rebase"), rebasing.stderr);
  assert(
    commandsOf(rebasing.stderr).includes(
      shellCommand(["git", "-C", shared.dir, "rebase", "--abort"]),
    ),
  );
});

Deno.test("an empty remote gets the whole branch, and a branch with no upstream gets one", async () => {
  await using kb = await makeKb({ empty: true });
  const remote = join(kb.root, "empty.git");
  await git(kb.root, "init", "--quiet", "--bare", "-b", "main", remote);
  const added = await cli(machineA(kb), "add", "--title", "First", "--type", "note", "--body", "x");
  assertEquals(added.code, 0, show(added));
  await git(kb.dir, "remote", "add", "origin", remote);
  const report = await sync(machineA(kb));
  assertEquals(report.outgoing.commits, 2);
  assertEquals(report.outgoing.added.map((entry) => entry.title), ["First"]);
  assertEquals(await git(remote, "rev-parse", "main"), await git(kb.dir, "rev-parse", "HEAD"));
  assertEquals(await git(kb.dir, "rev-parse", "--abbrev-ref", "@{u}"), "origin/main");
  assertEquals((await sync(machineA(kb))).outcome, "up-to-date");
});

Deno.test("a sync waits for a save under way, then syncs", async (t) => {
  if (await runAlone(t)) return;
  await using kb = await makeKb({ remote: true });
  using _cache = overrideEnv({ XDG_CACHE_HOME: kb.tmp });
  await pushEntryFrom(await cloneRemote(kb), "kb-far01", "Pushed elsewhere");
  const head = await git(kb.dir, "rev-parse", "HEAD");
  let syncing: Promise<SyncReport> | undefined;
  await withLock(await saveLockPath(kb.dir), async () => {
    syncing = syncKb(kb.dir);
    await new Promise((done) => setTimeout(done, 1_000));
    assertEquals(
      await git(kb.dir, "rev-parse", "HEAD"),
      head,
      "nothing moved while the save held the lock",
    );
  });
  const report = await syncing!;
  assertEquals(report.incoming.added.map((entry) => entry.id), ["kb-far01"]);
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), await git(kb.remote!, "rev-parse", "main"));
});

Deno.test("a merge made to finish a conflict, with the remote moved again since: the sync says to merge once more, and that works", async () => {
  await using kb = await makeKb({ remote: true });
  const [a, b] = [machineA(kb), await machine(kb, "b")];
  assertEquals((await cli(a, "edit", ENTRY, "--body", "Words from A.")).code, 0);
  await editOffline(b, ENTRY, "Words from B.");
  assertEquals((await cli(b, "sync")).code, 4);
  await git(
    b.dir,
    "merge",
    "--quiet",
    "-s",
    "ours",
    "-m",
    "kb: keep B's words",
    "refs/git-kb/sync-theirs",
  );
  assertEquals((await cli(a, "edit", "kb-3hd8w", "--body", "More from A.")).code, 0);

  const refused = await cli(b, "sync");
  assertEquals(refused.code, 1, show(refused));
  assert(refused.stderr.includes("hold a merge commit"), refused.stderr);
  for (const command of commandsOf(refused.stderr)) {
    const env = { PATH: Deno.env.get("PATH")!, ...childEnv(b.env) };
    if (command.startsWith("git-kb ")) continue; // run as the CLI below

    const ran = await runProcess("/bin/sh", ["-c", command], { clearEnv: true, env });
    assertEquals(ran.code, 0, `${command}\n${show(ran)}`);
  }
  const report = await sync(b);
  assertEquals(report.outgoing.commits, 3);
  assertEquals(await git(b.dir, "rev-parse", "HEAD"), await git(kb.remote!, "rev-parse", "main"));
  const got = await cli(a, "sync");
  assertEquals(got.code, 0, show(got));
  assert((await cli(a, "get", "kb-3hd8w")).stdout.includes("More from A."));
});

Deno.test("the sync that follows a conflict merged by hand says what came in as well as what went out", async () => {
  await using kb = await makeKb({ remote: true });
  const [a, b] = [machineA(kb), await machine(kb, "b")];
  assertEquals((await cli(a, "edit", ENTRY, "--body", "Words from A.")).code, 0);
  await pushEntryFrom(kb.dir, "kb-n3wa1", "Quokka feeding from A");
  await editOffline(b, ENTRY, "Words from B.");
  assertEquals((await cli(b, "sync")).code, 4);
  // The conflict resolved as the printed steps do: merge, keep both sides' words, commit.
  const merge = await runProcess("git", ["-C", b.dir, "merge", "refs/git-kb/sync-theirs"], {
    env: childEnv(b.env),
  });
  assertEquals(merge.code, 1, show(merge));
  const path = await entryPath(b.dir, ENTRY);
  const text = await Deno.readTextFile(join(b.dir, path));
  await Deno.writeTextFile(join(b.dir, path), text.replace(/^(<{7}|={7}|>{7}).*\n/gm, ""));
  await git(b.dir, "commit", "--quiet", "-am", "kb: keep both");

  const synced = await cli(b, "sync");
  assertEquals(synced.code, 0, show(synced));
  assertEquals(synced.stdout.split("\n").slice(1, 6), [
    "Came in: 2 commits",
    '  + kb-n3wa1 "Quokka feeding from A"',
    '  ~ kb-7q2mx "Rotate a leaked npm or Cloudflare token"',
    "Went out: 2 commits",
    '  ~ kb-7q2mx "Rotate a leaked npm or Cloudflare token"',
  ]);
  assertEquals(await git(b.dir, "rev-parse", "HEAD"), await git(kb.remote!, "rev-parse", "main"));
  // Nothing more to say the next time.
  const again = await sync(b);
  assertEquals(again.outcome, "up-to-date");
});

Deno.test("a save and a sync run no core.fsmonitor; the repository's pre-push hook runs as git runs it", async () => {
  await using kb = await makeKb({ remote: true });
  const a = machineA(kb);
  const ran = join(kb.root, "ran");
  await Deno.mkdir(ran);
  await git(kb.dir, "config", "core.fsmonitor", `touch ${shellQuote(join(ran, "fsmonitor"))}`);
  const hooks = join(kb.dir, ".git", "hooks");
  await Deno.mkdir(hooks, { recursive: true });
  const script = `#!/bin/sh\ntouch ${shellQuote(join(ran, "pre-push"))}\n`;
  await Deno.writeTextFile(join(hooks, "pre-push"), script, { mode: 0o755 });
  const added = await cli(
    a,
    "add",
    "--title",
    "Quokka feeding schedule",
    "--type",
    "note",
    "--body",
    "Twice a day.",
  );
  assertEquals(added.code, 0, show(added));
  await sync(a);
  const doctor = await cli(a, "doctor", "--offline");
  assertEquals(doctor.code, 0, show(doctor));
  assertEquals(await Array.fromAsync(Deno.readDir(ran), (item) => item.name), ["pre-push"]);
});

Deno.test("a push the repository's pre-push hook refuses is named as such, in the hook's words, credentials masked", async () => {
  await using kb = await makeKb({ remote: true });
  const a = machineA(kb);
  const hooks = join(kb.dir, ".git", "hooks");
  await Deno.mkdir(hooks, { recursive: true });
  const token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
  const script = `#!/bin/sh\necho "scanner: blocked ${token}" >&2\nexit 1\n`;
  await Deno.writeTextFile(join(hooks, "pre-push"), script, { mode: 0o755 });
  const added = await cli(
    a,
    "add",
    "--title",
    "Quokka feeding",
    "--type",
    "note",
    "--body",
    "Hay.",
  );
  assertEquals(added.code, 3, show(added));
  assertMatch(
    added.stderr,
    /the push to origin failed: this repository's pre-push hook refused it: scanner: blocked ghp_…\w+\./,
  );
  assert(!added.stderr.includes(token), show(added));
});
