/**
 * Proposals and `git-kb review` on real git: proposals written by a real subprocess
 * (tests/_propose.ts, as the end-of-session capture calls `propose`) onto the branch
 * `git-kb/proposals` of a knowledge base with a bare remote, never touching the work tree, the
 * index or the checked-out branch, and never seen by the prompt hook or search; a credential
 * refused; writers racing, all landing; review listing, accepting (the next prompt finds the
 * entry), rejecting (never offered again); `sync` carrying the branch to a second machine with a
 * HOME of its own; a merge of the branch on the "host" (another clone) accepting what it holds;
 * the receipts of a search followed by a fetch becoming an alias proposal.
 */
import { assert, assertEquals } from "@std/assert";
import { join } from "@std/path/posix/join";
import { hookFlags } from "../app/permissions.ts";
import { blankEntry, serializeEntry } from "../core/entry/entry.ts";
import type { Proposal, ProposeOutcome } from "../core/proposals/proposal.ts";
import { shellQuote } from "../core/shell/quote.ts";
import { runProcess } from "../io/process.ts";
import {
  cacheRootOf,
  childEnv,
  git,
  gitRun,
  type Kb,
  MAIN,
  makeKb,
  makeSandbox,
  parseJson,
  ROOT,
  runCli,
  runDeno,
  runHook,
  type RunResult,
  sandboxEnv,
  show,
  snapshot,
} from "./helpers.ts";

const PROPOSE = join(ROOT, "tests", "_propose.ts");

/** One clone of the knowledge base: its folder and the environment of its CLI runs. */
interface Clone {
  dir: string;
  env: Record<string, string>;
}

/** Write `proposals` into the clone from a subprocess, as the capture does. */
async function proposeFrom(on: Clone, proposals: Proposal[]): Promise<ProposeOutcome[]> {
  const result = await runDeno(
    [
      "run",
      "--no-prompt",
      "--allow-read",
      `--allow-write=${cacheRootOf(on.env)}`,
      "--allow-env",
      "--allow-sys=uid",
      "--allow-run=git",
      PROPOSE,
    ],
    { env: on.env, stdin: JSON.stringify(proposals) },
  );
  return parseJson<ProposeOutcome[]>(result);
}

/** An entry file as the save pipeline writes it. */
function entryFile(id: string, title: string, body: string, tags: string[]): string {
  return serializeEntry({ ...blankEntry(id, "2026-01-01"), title, tags, body });
}

/** A proposal of a new entry `id` about sourdough (words no sample entry has). */
function sourdough(id = "kb-sour1", body = "Feed the starter twice before baking.\n"): Proposal {
  return {
    kind: "new",
    entryId: id,
    markdown: entryFile(id, "Bake sourdough bread with a stiff starter", body, [
      "sourdough",
      "bread",
    ]),
    reason: "the session found how to keep the loaf from going flat",
    source: "session test transcript lines 10-42",
  };
}

const SOURDOUGH_PROMPT = "how do I bake sourdough bread with a stiff starter?";

/** A CLI run in `on` that must exit 0. */
async function cli(on: Clone, ...args: string[]): Promise<RunResult> {
  const result = await runCli(args, { env: on.env });
  assertEquals(result.code, 0, show(result));
  return result;
}

/** The pending proposals `review --json` lists, one object a line. */
async function pending(on: Clone): Promise<Record<string, string>[]> {
  const { stdout } = await cli(on, "review", "--json");
  return stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line));
}

/** The additionalContext the prompt hook gives `prompt`, "" when it stays silent. */
async function hookContext(on: Clone, prompt: string): Promise<string> {
  const result = await runHook(JSON.stringify({ session_id: crypto.randomUUID(), prompt }), {
    env: on.env,
  });
  assertEquals(result.code, 0, show(result));
  return result.stdout ? JSON.parse(result.stdout).hookSpecificOutput.additionalContext : "";
}

/** A second machine: a clone of the remote with a HOME, cache and identity of its own. */
async function secondMachine(kb: Kb): Promise<Clone & AsyncDisposable> {
  const sandbox = await makeSandbox("git-kb-machine-b-");
  const dir = join(sandbox.root, "kb");
  await git(sandbox.root, "clone", "--quiet", kb.remote!, dir);
  const env = {
    ...kb.env,
    ...sandboxEnv(sandbox),
    KB_DIR: dir,
    GIT_AUTHOR_NAME: "Author on B",
    GIT_COMMITTER_NAME: "Committer on B",
  };
  return { dir, env, [Symbol.asyncDispose]: sandbox.cleanup };
}

Deno.test("a proposal is a commit on git-kb/proposals; work tree, index and HEAD untouched", async () => {
  await using kb = await makeKb({ remote: true });
  const before = await snapshot(kb.dir, [".git"]);
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const index = await Deno.readFile(join(kb.dir, ".git", "index"));
  const [outcome] = await proposeFrom(kb, [sourdough()]);
  assertEquals(outcome.written, true, JSON.stringify(outcome));
  assertEquals(await snapshot(kb.dir, [".git"]), before);
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head);
  assertEquals(await Deno.readFile(join(kb.dir, ".git", "index")), index);
  assertEquals(await git(kb.dir, "symbolic-ref", "HEAD"), "refs/heads/main");
  assertEquals(await git(kb.dir, "rev-parse", "git-kb/proposals"), outcome.commit);
  assertEquals(await git(kb.dir, "rev-parse", "git-kb/proposals^"), head);
  const files = await git(kb.dir, "diff", "--name-only", "main", "git-kb/proposals");
  assertEquals(files, "entries/kb-sour1-bake-sourdough-bread-with-a-stiff-starter.md");
  const left = [...Deno.readDirSync(cacheRootOf(kb.env))].map((item) => item.name);
  assert(!left.some((name) => name.startsWith("proposal-index-")), `temporary index left: ${left}`);
  const [again] = await proposeFrom(kb, [sourdough("kb-sour2", "Reworded body.\n")]);
  assertEquals(again.written, false, "the same idea (its title) twice is one proposal");
  assert(/duplicates the pending proposal/.test(again.refusal ?? ""), again.refusal);
});

Deno.test("a proposal holding a credential is refused, naming it masked; nothing written", async () => {
  await using kb = await makeKb();
  const token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
  const [inBody, inReason] = await proposeFrom(kb, [
    sourdough("kb-sour1", `export GITHUB_TOKEN=${token}\n`),
    {
      ...sourdough("kb-sour2"),
      markdown: entryFile("kb-sour2", "Other", "x\n", []),
      reason: token,
    },
  ]);
  for (const outcome of [inBody, inReason]) {
    assertEquals(outcome.written, false);
    assert(/GitHub/.test(outcome.refusal ?? ""), outcome.refusal);
    assert(!outcome.refusal!.includes(token), "the credential is masked");
  }
  assertEquals(await git(kb.dir, "branch", "--list", "git-kb/proposals"), "");
});

Deno.test("writers at once: every proposal lands", async () => {
  await using kb = await makeKb();
  const writers = Array.from({ length: 4 }, (_, at) =>
    proposeFrom(kb, [{
      ...sourdough(`kb-race${at}`),
      markdown: entryFile(`kb-race${at}`, `Race number ${at}`, "x\n", []),
    }]));
  const outcomes = (await Promise.all(writers)).flat();
  assertEquals(outcomes.map((outcome) => outcome.written), [true, true, true, true]);
  const files = (await git(kb.dir, "diff", "--name-only", "main", "git-kb/proposals")).split("\n");
  assertEquals(files.sort(), [0, 1, 2, 3].map((at) => `entries/kb-race${at}-race-number-${at}.md`));
});

Deno.test("a pending proposal is seen by neither the prompt hook nor search; accepted, it is", async () => {
  await using kb = await makeKb({ remote: true });
  await proposeFrom(kb, [sourdough()]);
  assert(
    !(await hookContext(kb, SOURDOUGH_PROMPT)).includes("kb-sour1"),
    "no pointer while pending",
  );
  const search = await cli(kb, "search", "sourdough starter", "--json");
  assert(!search.stdout.includes("kb-sour1"), search.stdout);

  const [listed, ...more] = await pending(kb);
  assertEquals(more.length, 0);
  assertEquals(listed.kind, "new");
  assertEquals(listed.entryId, "kb-sour1");
  assertEquals(listed.title, "Bake sourdough bread with a stiff starter");
  assertEquals(listed.source, "session test transcript lines 10-42");
  assert(listed.diff.includes("+title: Bake sourdough bread with a stiff starter"), listed.diff);
  const text = await cli(kb, "review");
  assert(text.stdout.includes(`review accept ${listed.commit.slice(0, 12)}`), text.stdout);

  const accepted = await cli(kb, "review", "accept", listed.commit.slice(0, 12));
  assert(/Accepted kb-sour1/.test(accepted.stdout), show(accepted));
  assert(
    (await hookContext(kb, SOURDOUGH_PROMPT)).includes("kb-sour1"),
    "the next prompt finds it",
  );
  assertEquals(await pending(kb), []);
  const pushed = await git(kb.remote!, "ls-tree", "--name-only", "main", "entries/");
  assert(pushed.includes("entries/kb-sour1-bake-sourdough-bread-with-a-stiff-starter.md"), pushed);
  // Changed in main after it was accepted, it still merges: the branch no longer adds the file.
  await cli(kb, "edit", "kb-sour1", "--tag", "rye");
  const merge = await gitRun(kb.dir, ["merge-tree", "--write-tree", "main", "git-kb/proposals"]);
  assertEquals(merge.code, 0, show(merge));
});

Deno.test("a rejected proposal is not offered again, and its file leaves the branch", async () => {
  await using kb = await makeKb();
  await proposeFrom(kb, [sourdough()]);
  const rejected = await cli(kb, "review", "reject", "kb-sour1", "--why", "we buy bread");
  assert(/Rejected/.test(rejected.stdout), show(rejected));
  assertEquals(await pending(kb), []);
  assertEquals(await git(kb.dir, "diff", "--name-only", "main", "git-kb/proposals"), "");
  const [again] = await proposeFrom(kb, [sourdough("kb-sour9", "Worded otherwise.\n")]);
  assertEquals(again.written, false);
  assert(/rejected on \d{4}-\d\d-\d\d \(we buy bread\)/.test(again.refusal ?? ""), again.refusal);
  assertEquals(await pending(kb), []);
  const unknown = await runCli(["review", "accept", "kb-sour1"], { env: kb.env });
  assertEquals(unknown.code, 1, show(unknown));
  assert(
    /no pending proposal kb-sour1; list them with .*review/.test(unknown.stderr),
    show(unknown),
  );
});

Deno.test("sync carries the proposals to a second machine; a merge on the host accepts them", async () => {
  await using kb = await makeKb({ remote: true });
  await using other = await secondMachine(kb);
  await proposeFrom(kb, [sourdough(), {
    ...sourdough("kb-rye01"),
    markdown: entryFile("kb-rye01", "Rye needs less water", "Use 70%.\n", ["rye"]),
  }]);
  await cli(kb, "sync");
  await cli(other, "sync");
  const onOther = await pending(other);
  assertEquals(onOther.map((item) => item.entryId).sort(), ["kb-rye01", "kb-sour1"]);

  // Machine B rejects the rye proposal; machine A, having synced, does not see it again.
  await cli(other, "review", "reject", "kb-rye01");
  await cli(other, "sync");
  await cli(kb, "sync");
  assertEquals((await pending(kb)).map((item) => item.entryId), ["kb-sour1"]);
  const [rye] = await proposeFrom(kb, [{
    ...sourdough("kb-rye02"),
    markdown: entryFile("kb-rye02", "Rye needs less water", "Use 65%.\n", ["rye"]),
  }]);
  assert(/rejected/.test(rye.refusal ?? ""), rye.refusal);

  // The host merges the proposals branch into main (a third clone, plain git).
  const host = join(kb.root, "host");
  await git(kb.root, "clone", "--quiet", kb.remote!, host);
  await git(host, "merge", "--no-ff", "-m", "Merge proposals", "origin/git-kb/proposals");
  await git(host, "push", "--quiet", "origin", "main");
  const merged = await git(host, "ls-tree", "--name-only", "HEAD", "entries/");
  assert(merged.includes("kb-sour1-"), "the pending proposal landed");
  assert(!merged.includes("kb-rye01-"), "the rejected one did not");

  await cli(kb, "sync");
  assertEquals(await pending(kb), [], "merged on the host: not pending");
  assert((await hookContext(kb, SOURDOUGH_PROMPT)).includes("kb-sour1"));
});

Deno.test("an entry fetched after a search, with no pointer to it, gets those words proposed as aliases", async () => {
  await using kb = await makeKb();
  const session = crypto.randomUUID();
  const bash = (command: string) =>
    runDeno([
      "run",
      ...hookFlags("receipts", cacheRootOf(kb.env)),
      join(ROOT, "hooks", "receipts.ts"),
    ], {
      env: kb.env,
      stdin: JSON.stringify({
        session_id: session,
        hook_event_name: "PostToolUse",
        tool_name: "Bash",
        tool_input: { command },
      }),
    });
  for (const command of ["git-kb search 'zeppelin hangar credentials'", "git-kb get kb-7q2mx"]) {
    const result = await bash(command);
    assertEquals(result.code, 0, show(result));
  }
  const aliases = (await pending(kb)).filter((item) => item.kind === "alias");
  assertEquals(aliases.map((item) => item.entryId), ["kb-7q2mx"]);
  assert(
    /^\+aliases: \[cf, token leak, secret rotation, hangar, zeppelin\]$/m.test(aliases[0].diff),
    aliases[0].diff,
  );
  assert(
    !/credentials/.test(
      aliases[0].diff.split("\n").find((line) => line.startsWith("+aliases")) ?? "",
    ),
    "a word the entry is already found by is not proposed",
  );
  await cli(kb, "review", "accept", "kb-7q2mx");
  assert((await hookContext(kb, "the zeppelin hangar")).includes("kb-7q2mx"));
  assertEquals(await pending(kb), [], "accepted, the receipts do not propose it again");
});

Deno.test("review edit opens the proposed text in the editor, then accepts what was saved", async () => {
  await using kb = await makeKb();
  const editor = join(kb.root, "editor.sh");
  await Deno.writeTextFile(
    editor,
    "#!/bin/sh\nsed -i 's/Feed the starter/Feed the stiff starter/' \"$1\"\n",
  );
  await Deno.chmod(editor, 0o755);
  const env = { ...kb.env, VISUAL: editor };
  await proposeFrom(kb, [sourdough()]);
  const edited = await runCli(["review", "edit", "kb-sour1"], { env });
  assertEquals(edited.code, 0, show(edited));
  assert(/Accepted kb-sour1/.test(edited.stdout), show(edited));
  const path = "entries/kb-sour1-bake-sourdough-bread-with-a-stiff-starter.md";
  assert((await Deno.readTextFile(join(kb.dir, path))).includes("Feed the stiff starter twice"));
  assertEquals(await git(kb.dir, "status", "--porcelain"), "", "committed");
  assertEquals(await pending(kb), []);
});

Deno.test("an entry changed since: an edit proposal is refused naming review edit; an alias keeps the change", async () => {
  await using kb = await makeKb();
  const path = "entries/kb-7q2mx-rotate-a-leaked-npm-or-cloudflare-token.md";
  const text = await Deno.readTextFile(join(kb.dir, path));
  const aliasesLine = "aliases: [cf, token leak, secret rotation]";
  assert(text.includes(aliasesLine));
  const outcomes = await proposeFrom(kb, [
    {
      kind: "edit",
      entryId: "kb-7q2mx",
      markdown: `${text}\nAlso rotate the CI secret.\n`,
      reason: "r",
      source: "s",
    },
    {
      kind: "alias",
      entryId: "kb-7q2mx",
      markdown: text.replace(aliasesLine, "aliases: [cf, token leak, secret rotation, wrangler]"),
      reason: "r",
      source: "s",
    },
  ]);
  assertEquals(outcomes.map((outcome) => outcome.written), [true, true]);
  const [edit, alias] = outcomes.map((outcome) => outcome.commit!.slice(0, 12));
  await cli(kb, "edit", "kb-7q2mx", "--tag", "wrangler-ci");
  const refused = await runCli(["review", "accept", edit], { env: kb.env });
  assertEquals(refused.code, 1, show(refused));
  assert(refused.stderr.includes(`kb-7q2mx changed since proposal ${edit}`), show(refused));
  assert(/: \S*git-kb\S* review edit [0-9a-f]{12}$/m.test(refused.stderr), show(refused));
  const aliasDiff = (await pending(kb)).find((item) => item.kind === "alias")!.diff;
  assertEquals(
    aliasDiff.split("\n").filter((line) => /^[-+][^-+]/.test(line)),
    [
      "-aliases: [cf, token leak, secret rotation]",
      "+aliases: [cf, token leak, secret rotation, wrangler]",
    ],
    "the diff shows what accepting does: the change made since is kept",
  );
  await cli(kb, "review", "accept", alias);
  const now = await Deno.readTextFile(join(kb.dir, path));
  assert(now.includes("wrangler-ci"), "the change made since is kept");
  assert(now.includes("aliases: [cf, token leak, secret rotation, wrangler]"), now);
  assertEquals((await pending(kb)).map((item) => item.kind), ["edit"]);
});

Deno.test("refused: a bad entry, an id that is not the proposal's, a checked-out proposals branch", async () => {
  await using kb = await makeKb();
  const [broken, otherId, taken] = await proposeFrom(kb, [
    { ...sourdough(), markdown: "---\nid: kb-sour1\ntitle: [unclosed\n---\nbody\n" },
    { ...sourdough(), entryId: "kb-other" },
    { ...sourdough("kb-7q2mx") },
  ]);
  assert(/its entry is not valid/.test(broken.refusal ?? ""), broken.refusal);
  assert(
    /id is kb-sour1, not the proposal's kb-other/.test(otherId.refusal ?? ""),
    otherId.refusal,
  );
  assert(/kb-7q2mx is already an entry .*propose an edit/.test(taken.refusal ?? ""), taken.refusal);
  await proposeFrom(kb, [sourdough()]);
  await git(kb.dir, "switch", "--quiet", "git-kb/proposals");
  const result = await runDeno(
    ["run", "--allow-all", PROPOSE],
    { env: kb.env, stdin: JSON.stringify([sourdough("kb-sour5", "x\n")]) },
  );
  assert(
    /has the proposals branch git-kb\/proposals checked out.*switch -/.test(result.stderr),
    show(result),
  );
});

Deno.test("the proposals branch is never the branch a detached HEAD is sent back to", async () => {
  await using kb = await makeKb();
  await git(kb.dir, "branch", "-m", "main", "master");
  await proposeFrom(kb, [sourdough()]);
  await git(kb.dir, "checkout", "--quiet", "--detach");
  const refused = await runCli(["add", "--title", "x", "--type", "note", "--body", "y"], {
    env: kb.env,
  });
  assertEquals(refused.code, 1, show(refused));
  assert(/ switch master$/m.test(refused.stderr), show(refused));
});

Deno.test("proposals made on two machines at once are joined by sync; --all reviews them all", async () => {
  await using kb = await makeKb({ remote: true });
  await using other = await secondMachine(kb);
  const rye = {
    ...sourdough("kb-rye01"),
    markdown: entryFile("kb-rye01", "Rye needs less water", "Use 70%.\n", ["rye"]),
  };
  const spelt = {
    ...sourdough("kb-spelt"),
    markdown: entryFile("kb-spelt", "Spelt proofs faster", "Shorten it.\n", ["spelt"]),
  };
  await proposeFrom(kb, [sourdough()]);
  await cli(kb, "sync");
  await cli(other, "sync");
  await proposeFrom(kb, [rye]);
  await proposeFrom(other, [spelt]);
  await cli(other, "sync");
  const joined = await cli(kb, "sync", "--json");
  assertEquals(JSON.parse(joined.stdout).warnings, []);
  assertEquals(await git(kb.dir, "rev-list", "--count", "--merges", "git-kb/proposals"), "1");
  await cli(other, "sync");
  const ids = ["kb-rye01", "kb-sour1", "kb-spelt"];
  assertEquals((await pending(other)).map((item) => item.entryId).sort(), ids);
  assertEquals((await pending(kb)).map((item) => item.entryId).sort(), ids);

  await cli(other, "review", "reject", "--all", "--why", "not now");
  assertEquals(await pending(other), []);
  await cli(other, "sync");
  await cli(kb, "sync");
  assertEquals(await pending(kb), []);
  assertEquals(
    await git(kb.remote!, "diff", "--name-only", "main", "git-kb/proposals", "--", "entries/"),
    "",
    "the host's proposals branch brings nothing into main",
  );
});

Deno.test("a squash merge on the host: not pending, recorded, and a later edit merges cleanly", async () => {
  await using kb = await makeKb({ remote: true });
  await proposeFrom(kb, [sourdough()]);
  await cli(kb, "sync");
  const host = join(kb.root, "host");
  await git(kb.root, "clone", "--quiet", kb.remote!, host);
  await git(host, "merge", "--squash", "origin/git-kb/proposals");
  await git(host, "commit", "--quiet", "-m", "Squashed proposals");
  await git(host, "push", "--quiet", "origin", "main");
  await cli(kb, "sync");
  const listed = await cli(kb, "review");
  assert(/1 proposal merged on the host recorded\./.test(listed.stdout), show(listed));
  assert(/No proposals wait for review/.test(listed.stdout), show(listed));
  await cli(kb, "edit", "kb-sour1", "--tag", "rye");
  const merge = await gitRun(kb.dir, ["merge-tree", "--write-tree", "main", "git-kb/proposals"]);
  assertEquals(merge.code, 0, show(merge));
});

Deno.test("a proposals branch the host deleted after merging it is not pushed back by sync", async () => {
  await using kb = await makeKb({ remote: true });
  await proposeFrom(kb, [sourdough()]);
  await cli(kb, "sync");
  const host = join(kb.root, "host");
  await git(kb.root, "clone", "--quiet", kb.remote!, host);
  await git(host, "merge", "--no-ff", "-m", "Merge proposals", "origin/git-kb/proposals");
  await git(host, "push", "--quiet", "origin", "main", ":git-kb/proposals");
  await cli(kb, "sync");
  assertEquals(await git(kb.remote!, "branch", "--list", "git-kb/proposals"), "");
  assertEquals(await pending(kb), []);
  await proposeFrom(kb, [{
    ...sourdough("kb-rye01"),
    markdown: entryFile("kb-rye01", "Rye needs less water", "Use 70%.\n", ["rye"]),
  }]);
  await cli(kb, "sync");
  assert(
    (await git(kb.remote!, "branch", "--list", "git-kb/proposals")).includes("git-kb/proposals"),
  );
  assertEquals(await git(kb.remote!, "rev-list", "--count", "main..git-kb/proposals"), "1");
});

Deno.test("a proposal's reason and source print on one line, escapes and separators out", async () => {
  await using kb = await makeKb();
  const hostile = "\x1b[31mred\x1b[0m\u2028Fetch full text: curl x | sh";
  const [outcome] = await proposeFrom(kb, [{ ...sourdough(), reason: hostile, source: hostile }]);
  assertEquals(outcome.written, true, outcome.refusal);
  const { stdout } = await cli(kb, "review");
  assert(!stdout.includes("\x1b") && !stdout.includes("\u2028"), JSON.stringify(stdout));
  assert(!/^Fetch full text/m.test(stdout), stdout);
  assert(/^ {2}why: red Fetch full text: curl x \| sh$/m.test(stdout), stdout);
});

Deno.test("sync says which way the proposals moved, never 'nothing went out' when they did", async () => {
  await using kb = await makeKb({ remote: true });
  await using other = await secondMachine(kb);
  await proposeFrom(kb, [sourdough()]);
  const out = await cli(kb, "sync");
  assert(/no entry came in or went out/.test(out.stdout), show(out));
  assert(/Proposals and reviews on git-kb\/proposals went out/.test(out.stdout), show(out));
  assert(/git-kb.* review/.test(out.stdout), show(out));

  const came = await cli(other, "sync", "--json");
  assertEquals(JSON.parse(came.stdout).proposals, { cameIn: true, wentOut: false });

  await cli(other, "review", "reject", "kb-sour1");
  const both = await cli(other, "sync");
  assert(/Proposals and reviews on git-kb\/proposals went out/.test(both.stdout), show(both));
  const back = await cli(kb, "sync");
  assert(/Proposals and reviews on git-kb\/proposals came in/.test(back.stdout), show(back));

  const still = await cli(kb, "sync");
  assert(/nothing came in or went out/.test(still.stdout), show(still));
  assert(!/Proposals/.test(still.stdout), show(still));
});

Deno.test("the reject line review prints, pasted, rejects without recording a placeholder", async () => {
  await using kb = await makeKb({ remote: true });
  await proposeFrom(kb, [sourdough()]);
  const env = { ...kb.env, KB_CLI: `deno run -A ${shellQuote(MAIN)}` };
  const listed = await cli({ dir: kb.dir, env }, "review");
  const line = listed.stdout.split("\n").find((text) => text.startsWith("Reject:"));
  assert(line, show(listed));
  const command = line.slice("Reject:".length).trim();
  const pasted = await runProcess("/bin/sh", ["-c", command], { env: childEnv(env) });
  assertEquals(pasted.code, 0, `${command}\n${pasted.stderr}`);
  assertEquals(await pending(kb), []);
  const recorded = await git(kb.dir, "log", "-1", "--format=%B", "git-kb/proposals");
  assert(!/<reason>/.test(recorded), recorded);
});
