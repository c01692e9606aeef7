/**
 * The save pipeline through the real CLI on real git: round trips of every field, unknown
 * fields and body bytes kept on edit, every validation failure leaving the repo untouched,
 * pushing (plain, after a rebase, a real conflict, an unreachable remote, no remote) and a
 * commit without any configured git identity.
 */
import {
  assert,
  assertEquals,
  assertMatch,
  assertNotMatch,
  assertRejects,
  assertStrictEquals,
} from "@std/assert";
import { join } from "@std/path/posix/join";
import { parse } from "@std/yaml";
import {
  cloneRemote,
  entryPath,
  git,
  type Kb,
  makeKb,
  makeSandbox,
  parseJson,
  pushEntryFrom,
  runCli,
  type RunResult,
  show,
  snapshot,
  STACK_FRAME,
} from "./helpers.ts";

interface SaveJson {
  id: string;
  path: string;
  commit: string;
  push: string;
  index: { mode: string; docCount: number };
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** Frontmatter (parsed) and body (raw) of an entry file. */
function splitEntry(text: string): { fields: Record<string, unknown>; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  assert(match, `not an entry file:\n${text}`);
  return {
    fields: parse(match[1], { schema: "core" }) as Record<string, unknown>,
    body: match[2],
  };
}

async function readEntry(kb: Kb, path: string) {
  const text = await Deno.readTextFile(join(kb.dir, path));
  return { text, ...splitEntry(text) };
}

function assertOk(result: RunResult): void {
  assertEquals(result.code, 0, show(result));
}

const TRICKY_BODY = [
  "# Heading",
  "",
  "A line with two trailing spaces for a break  ",
  "and the next line.\t(tab inside)",
  "",
  "```sh",
  "\tindented with a tab",
  "    indented with spaces",
  "```",
  "",
  "- a list item linking [[kb-7q2mx]]",
  "  * nested, with *emphasis* and `code`",
  "",
  "Ünïcödé — «quotes» and emoji 🧪",
  "---",
  "A horizontal rule above must stay in the body.",
  "",
  "",
].join("\n");

Deno.test("add with every field flag round-trips through get, and edit keeps the rest", async (t) => {
  await using kb = await makeKb();
  const bodyFile = join(kb.root, "body.md");
  await Deno.writeTextFile(bodyFile, TRICKY_BODY);
  const headBefore = await git(kb.dir, "rev-parse", "HEAD");
  let id = "";
  let path = "";

  await t.step("add with every flag writes, commits and indexes the entry", async () => {
    const result = await runCli([
      "add",
      "--title",
      "Round trip: every field, kept",
      "--type",
      "decision",
      "--tag",
      "alpha,beta/gamma",
      "--tag",
      "delta",
      "--alias",
      "rt",
      "--alias",
      "round trip",
      "--applies-to",
      "coding",
      "--applies-to",
      "reviewing",
      "--kernel",
      "--status",
      "active",
      "--source",
      "https://example.test/round-trip",
      "--link",
      "related:kb-7q2mx",
      "--link",
      "refines:kb-r4b9t",
      "--body-file",
      bodyFile,
      "--json",
    ], { env: kb.env });
    assertOk(result);
    const saved = parseJson<SaveJson>(result);
    assertMatch(saved.id, /^kb-[0-9a-z]{5}$/);
    id = saved.id;
    path = saved.path;
    assertEquals(path, `entries/${id}-round-trip-every-field-kept.md`);
    assertEquals(saved.push, "NO_REMOTE");
    assertEquals(saved.index.docCount, 46);
    assertEquals(saved.commit, await git(kb.dir, "rev-parse", "HEAD"));
    assertEquals(await git(kb.dir, "rev-parse", "HEAD~1"), headBefore);
    assertEquals(await git(kb.dir, "status", "--porcelain"), "");
    assertEquals(await git(kb.dir, "ls-files", "--", path), path);
    const subject = await git(kb.dir, "log", "-1", "--format=%s");
    assert(subject.includes(id) && subject.includes("Round trip"), subject);

    const { fields, body } = await readEntry(kb, path);
    assertEquals(fields, {
      id,
      title: "Round trip: every field, kept",
      type: "decision",
      tags: ["alpha", "beta/gamma", "delta"],
      aliases: ["rt", "round trip"],
      applies_to: ["coding", "reviewing"],
      kernel: true,
      status: "active",
      created: today(),
      updated: today(),
      source: "https://example.test/round-trip",
      links: [{ rel: "related", to: "kb-7q2mx" }, { rel: "refines", to: "kb-r4b9t" }],
    });
    assertEquals(body, TRICKY_BODY, "the body must be stored byte for byte");
  });

  await t.step("get prints the stored file verbatim and search finds it", async () => {
    const [get, search] = await Promise.all([
      runCli(["get", id], { env: kb.env }),
      runCli(["search", "round trip", "--json"], { env: kb.env }),
    ]);
    assertOk(get);
    assertEquals(get.stdout, await Deno.readTextFile(join(kb.dir, path)));
    assertOk(search);
    assertStrictEquals(parseJson<{ id: string }[]>(search)[0]?.id, id, show(search));
  });

  await t.step("edit of one field keeps every other field and the body", async () => {
    const before = await readEntry(kb, path);
    const result = await runCli(["edit", id, "--title", "Round trip, renamed", "--json"], {
      env: kb.env,
    });
    assertOk(result);
    const saved = parseJson<SaveJson>(result);
    assertEquals(saved.path, path, "the slug is fixed at creation");
    const after = await readEntry(kb, path);
    assertEquals(after.fields, { ...before.fields, title: "Round trip, renamed" });
    assertEquals(after.body, TRICKY_BODY);
    assertMatch(await git(kb.dir, "log", "-1", "--format=%s"), new RegExp(`edit ${id}.*title`));
    assertEquals(await git(kb.dir, "status", "--porcelain"), "");
  });

  await t.step("edit with --no-kernel, --status, --body replaces exactly those", async () => {
    const before = await readEntry(kb, path);
    const result = await runCli(
      ["edit", id, "--no-kernel", "--status", "archived", "--body", "Short body."],
      { env: kb.env },
    );
    assertOk(result);
    assertMatch(result.stdout, new RegExp(`Edited ${id}`));
    const after = await readEntry(kb, path);
    assertEquals(after.fields, { ...before.fields, kernel: false, status: "archived" });
    assertEquals(after.body, "Short body.\n");
  });

  await t.step("an edit that changes nothing commits nothing", async () => {
    const head = await git(kb.dir, "rev-parse", "HEAD");
    const result = await runCli(["edit", id, "--status", "archived"], { env: kb.env });
    assertOk(result);
    assertMatch(result.stdout, /No changes/);
    assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head);
  });

  await t.step("add --id and --body-file - (stdin) round-trip", async () => {
    const body = "From stdin,\n\n  kept exactly.\n";
    const result = await runCli(
      [
        "add",
        "--id",
        "kb-st0d1",
        "--title",
        "Body from stdin",
        "--type",
        "note",
        "--body-file",
        "-",
      ],
      { env: kb.env, stdin: body },
    );
    assertOk(result);
    const stored = await readEntry(kb, "entries/kb-st0d1-body-from-stdin.md");
    assertEquals(stored.body, body);
    assertEquals(stored.fields.id, "kb-st0d1");
    assertEquals(stored.fields.type, "note");
  });

  await t.step("add --edit takes the body from $EDITOR", async () => {
    const editor = join(kb.root, "fake-editor.sh");
    await Deno.writeTextFile(editor, `#!/bin/sh\nprintf 'Written in the editor.\\n' >> "$1"\n`);
    await Deno.chmod(editor, 0o755);
    const result = await runCli(
      ["add", "--title", "Body from the editor", "--type", "note", "--edit", "--json"],
      { env: { ...kb.env, EDITOR: editor } },
    );
    assertOk(result);
    const saved = parseJson<SaveJson>(result);
    assertEquals((await readEntry(kb, saved.path)).body, "Written in the editor.\n");
  });
});

Deno.test("add --body-file of a note with frontmatter: its fields fill in what the command line leaves out, the command line wins, the block is not kept in the body", async () => {
  await using kb = await makeKb();
  const note = join(kb.root, "note.md");
  await Deno.writeTextFile(
    note,
    "---\ntitle: Deploy with make\ntype: howto\ntags: [deploy, ci]\ncreated: 2024-03-01\n" +
      "cssclass: wide\n---\nRun make deploy.\n",
  );
  const result = await runCli(
    ["add", "--body-file", note, "--tag", "ops", "--json"],
    { env: kb.env },
  );
  assertOk(result);
  assertMatch(
    result.stderr,
    new RegExp(
      `^note: read title, type, created, cssclass from the frontmatter of ${note}; ` +
        "the command line's tags won over the file's$",
      "m",
    ),
  );
  const stored = await readEntry(kb, parseJson<SaveJson>(result).path);
  assertEquals(stored.body, "Run make deploy.\n");
  assertEquals(stored.fields.title, "Deploy with make");
  assertEquals(stored.fields.type, "howto");
  assertEquals(stored.fields.tags, ["ops"]);
  assertEquals(stored.fields.created, "2024-03-01");
  assertEquals(stored.fields.cssclass, "wide");

  // A block that cannot be read, or a field of the wrong shape: refused, nothing written.
  const head = await git(kb.dir, "rev-parse", "HEAD");
  await Deno.writeTextFile(note, "---\ntitle: [unclosed\n---\nText.\n");
  const unreadable = await runCli(["add", "--body-file", note, "--type", "note"], {
    env: kb.env,
  });
  assertEquals(unreadable.code, 2, show(unreadable));
  assertMatch(unreadable.stderr, /opens with a frontmatter block that cannot be read/);
  await Deno.writeTextFile(note, "---\ntitle: T\nkernel: maybe\n---\nText.\n");
  const misshapen = await runCli(["add", "--body-file", note, "--type", "note"], {
    env: kb.env,
  });
  assertEquals(misshapen.code, 1, show(misshapen));
  assertMatch(
    misshapen.stderr,
    /The frontmatter of --body-file .* is not valid[^]*kernel: must be true or false/,
  );
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head);
});

Deno.test("edit --body-file of the entry as get prints it, edited: its fields and body are the entry's, the block not kept in the body; another entry's block is refused", async () => {
  await using kb = await makeKb();
  const added = await runCli(
    [
      "add",
      "--title",
      "Deploy",
      "--type",
      "howto",
      "--tag",
      "deploy,ci",
      "--body",
      "Old.",
      "--json",
    ],
    { env: kb.env },
  );
  assertOk(added);
  const { id } = parseJson<SaveJson>(added);
  const got = await runCli(["get", id], { env: kb.env });
  assertOk(got);
  const file = join(kb.root, "edited.md");
  await Deno.writeTextFile(
    file,
    got.stdout.replace("title: Deploy", "title: Deploy with make").replace(
      /tags: \[deploy, ci\]|(- deploy\n)- ci\n/,
      (_, block) => block ?? "tags: [deploy]",
    )
      .replace("Old.", "Run make deploy."),
  );
  const edited = await runCli(["edit", id, "--body-file", file], { env: kb.env });
  assertOk(edited);
  assertMatch(
    edited.stderr,
    new RegExp(
      `^note: read title, type, status, kernel, tags from the frontmatter of ${file}`,
      "m",
    ),
  );
  const stored = await readEntry(kb, parseJson<SaveJson>(added).path);
  assertEquals(stored.body.trim(), "Run make deploy.");
  assertEquals(stored.fields.title, "Deploy with make");
  assertEquals(stored.fields.tags, ["deploy"], "a tag taken out of the file is out of the entry");

  // A flag given wins over the file's field; a block of another id is refused, nothing written.
  const again = await runCli(["edit", id, "--body-file", file, "--title", "Mine"], { env: kb.env });
  assertOk(again);
  assertMatch(again.stderr, /the command line's title won over the file's/);
  assertEquals((await readEntry(kb, parseJson<SaveJson>(added).path)).fields.title, "Mine");
  const head = await git(kb.dir, "rev-parse", "HEAD");
  await Deno.writeTextFile(file, (await Deno.readTextFile(file)).replace(id, "kb-zzzzz"));
  const other = await runCli(["edit", id, "--body-file", file], { env: kb.env });
  assertEquals(other.code, 2, show(other));
  assertMatch(other.stderr, new RegExp(`opens with the frontmatter of kb-zzzzz, not of ${id}`));
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head);
});

Deno.test("add with no body saves the title-only entry and says so, with the edit that gives it one", async () => {
  await using kb = await makeKb();
  for (
    const [title, body] of [["Only a title", []], ["A blank body", ["--body", " \n "]]] as const
  ) {
    const added = await runCli(["add", "--title", title, "--type", "note", ...body], {
      env: kb.env,
    });
    assertOk(added);
    const id = /^Added (kb-\w{5})/m.exec(added.stdout)?.[1];
    assert(id, show(added));
    assertEquals(
      added.stderr,
      `note: ${id} has a title and no body; write one in your editor: git-kb edit ${id}\n`,
    );
    assertMatch(await git(kb.dir, "log", "-1", "--format=%s"), new RegExp(id));
  }
  const withBody = await runCli(
    ["add", "--title", "Has words", "--type", "note", "--body", "Words."],
    { env: kb.env },
  );
  assertOk(withBody);
  assertEquals(withBody.stderr, "");
});

Deno.test("edit keeps unknown frontmatter fields and the body bytes when a tag changes", async () => {
  await using kb = await makeKb();
  // kb-4fr7e carries reviewed_by; give another entry a nested unknown field by hand.
  const nestedPath = await entryPath(kb.dir, "kb-b3m7o");
  const nestedText = (await Deno.readTextFile(join(kb.dir, nestedPath))).replace(
    "\n---\n",
    "\nx_meta:\n  owner: bob\n  since: '2026-01-02'\n  scores: [1, 2]\n---\n",
  );
  await Deno.writeTextFile(join(kb.dir, nestedPath), nestedText);
  await git(kb.dir, "commit", "--quiet", "-am", "hand edit: x_meta");

  const path = await entryPath(kb.dir, "kb-4fr7e");
  const before = await readEntry(kb, path);
  const nestedBefore = await readEntry(kb, nestedPath);
  assertEquals(before.fields.reviewed_by, "alice");

  const [tagged, nested] = await Promise.all([
    runCli(["edit", "kb-4fr7e", "--add-tag", "reviewed"], { env: kb.env }),
    runCli(["edit", "kb-b3m7o", "--remove-tag", "ranking"], { env: kb.env }),
  ]);
  assertOk(tagged);
  assertOk(nested);

  const after = await readEntry(kb, path);
  assertEquals(after.fields.reviewed_by, "alice", after.text);
  assertEquals(after.fields.tags, [
    "postgres",
    "migrations",
    "deploys",
    "ci/cd",
    "reviewed",
  ]);
  assertEquals(after.fields.links, before.fields.links);
  for (const field of ["id", "title", "type", "created"]) {
    assertEquals(after.fields[field], before.fields[field], field);
  }
  assertEquals(after.body, before.body, "body bytes must not change when only a tag does");

  const nestedAfter = await readEntry(kb, nestedPath);
  assertEquals(nestedAfter.fields.x_meta, {
    owner: "bob",
    since: "2026-01-02",
    scores: [1, 2],
  });
  assertEquals(nestedAfter.fields.tags, ["search", "information-retrieval"]);
  assertEquals(nestedAfter.body, nestedBefore.body);
  assertEquals(await git(kb.dir, "status", "--porcelain"), "");
  assertEquals(await git(kb.dir, "rev-list", "--count", "HEAD"), "4");
});

Deno.test("every validation failure: exit 1, the field named, nothing written or committed", async (t) => {
  await using kb = await makeKb();
  // A hand-edited file with YAML that does not parse, and one with a wrong type, committed.
  const brokenPath = await entryPath(kb.dir, "kb-o2x9c");
  const brokenText = (await Deno.readTextFile(join(kb.dir, brokenPath))).replace(
    /^title: .*$/m,
    "title: [Semantic versioning, unclosed",
  );
  await Deno.writeTextFile(join(kb.dir, brokenPath), brokenText);
  const wrongTypePath = await entryPath(kb.dir, "kb-i8r2n");
  const wrongTypeText = (await Deno.readTextFile(join(kb.dir, wrongTypePath))).replace(
    /^type: .*$/m,
    "type: recipe",
  );
  await Deno.writeTextFile(join(kb.dir, wrongTypePath), wrongTypeText);
  await git(kb.dir, "commit", "--quiet", "-am", "hand edits");

  const big = join(kb.root, "big.md");
  await Deno.writeTextFile(big, "x".repeat(64 * 1024 + 1));
  const longKernel = join(kb.root, "kernel.md");
  await Deno.writeTextFile(longKernel, "Always do this. ".repeat(400));

  const head = await git(kb.dir, "rev-parse", "HEAD");
  // Everything in the temp root except the index cache and git's own folder.
  const before = await snapshot(kb.root, ["tmp", "kb/.git"]);

  const add = (...args: string[]) => ["add", "--title", "Invalid entry", ...args];
  const cases: { name: string; args: string[]; field: RegExp; also?: RegExp }[] = [
    {
      name: "bad YAML in a hand-edited file (edit refuses)",
      args: ["edit", "kb-o2x9c", "--title", "Semantic versioning"],
      field: /kb-o2x9c/,
      also: /YAML/,
    },
    {
      name: "a hand-edited file with an unknown type (edit refuses)",
      args: ["edit", "kb-i8r2n", "--add-tag", "x"],
      field: /\btype\b/,
      also: /recipe/,
    },
    { name: "unknown type", args: add("--type", "recipe"), field: /\btype\b/, also: /howto/ },
    {
      name: "unknown type on edit",
      args: ["edit", "kb-7q2mx", "--type", "recipe"],
      field: /\btype\b/,
    },
    {
      name: "unknown link rel",
      args: add("--type", "note", "--link", "inspired-by:kb-7q2mx"),
      field: /links\[0\]\.rel/,
      also: /supersedes/,
    },
    {
      name: "unknown activity",
      args: add("--type", "note", "--applies-to", "dancing"),
      field: /applies_to/,
      also: /coding/,
    },
    {
      name: "unknown status",
      args: add("--type", "note", "--status", "deleted"),
      field: /\bstatus\b/,
    },
    {
      name: "dangling link",
      args: add("--type", "note", "--link", "related:kb-zzzzz"),
      field: /links\[0\]\.to/,
      also: /kb-zzzzz/,
    },
    {
      name: "duplicate id",
      args: add("--type", "note", "--id", "kb-7q2mx"),
      field: /\bid\b/,
      also: /kb-7q2mx/,
    },
    { name: "id with ..", args: add("--type", "note", "--id", "kb-../x"), field: /\bid\b/ },
    { name: "id with /", args: add("--type", "note", "--id", "kb-a/b12"), field: /\bid\b/ },
    {
      name: "id escaping the repo",
      args: add("--type", "note", "--id", "../../escaped"),
      field: /\bid\b/,
    },
    {
      name: "body over 64 KiB",
      args: add("--type", "note", "--body-file", big),
      field: /\bbody\b/,
      also: /65536/,
    },
    {
      name: "kernel bodies over the budget",
      args: add("--type", "rule", "--kernel", "--body-file", longKernel),
      field: /\bkernel\b/,
    },
    {
      name: "title spanning lines",
      args: ["add", "--title", "two\nlines", "--type", "note"],
      field: /\btitle\b/,
    },
  ];
  const results = await Promise.all(cases.map(({ args }) => runCli(args, { env: kb.env })));
  for (const [index, { name, field, also }] of cases.entries()) {
    await t.step(name, () => {
      const result = results[index];
      assertEquals(result.code, 1, show(result));
      assertMatch(result.stderr, field, show(result));
      if (also) assertMatch(result.stderr, also, show(result));
      assertNotMatch(result.stderr, STACK_FRAME, show(result));
      assertEquals(result.stdout, "", show(result));
    });
  }

  await t.step("the repo is unchanged: same HEAD, clean status, no file anywhere", async () => {
    assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head);
    assertEquals(await git(kb.dir, "status", "--porcelain", "--ignored"), "");
    assertEquals(await snapshot(kb.root, ["tmp", "kb/.git"]), before);
    assertEquals(await Deno.readTextFile(join(kb.dir, brokenPath)), brokenText);
    assertEquals(await Deno.readTextFile(join(kb.dir, wrongTypePath)), wrongTypeText);
  });
});

Deno.test("push: to a bare remote, rebased after a rejection, a real conflict, a dead remote", async (t) => {
  await using kb = await makeKb({ remote: true });
  const remote = kb.remote!;
  const other = await cloneRemote(kb);

  await t.step("add pushes: the remote's main equals local HEAD", async () => {
    const result = await runCli(
      [
        "add",
        "--title",
        "Pushed entry",
        "--type",
        "note",
        "--body",
        "Goes to the remote.",
        "--json",
      ],
      { env: kb.env },
    );
    assertOk(result);
    const saved = parseJson<SaveJson>(result);
    assertEquals(saved.push, "pushed");
    const local = await git(kb.dir, "rev-parse", "HEAD");
    assertEquals(saved.commit, local);
    assertEquals(await git(remote, "rev-parse", "refs/heads/main"), local);
    assertEquals(await git(remote, "ls-tree", "--name-only", "main", saved.path), saved.path);
  });

  await t.step(
    "rejected push: pull --rebase, push again, both commits on the remote",
    async () => {
      await git(other, "pull", "--quiet", "--ff-only");
      const theirs = await pushEntryFrom(other, "kb-0th3r", "Someone else pushed this first");
      const result = await runCli(
        ["add", "--title", "Ours after theirs", "--type", "note", "--json"],
        { env: kb.env },
      );
      assertOk(result);
      const saved = parseJson<SaveJson>(result);
      assertEquals(saved.push, "rebased-and-pushed");
      const local = await git(kb.dir, "rev-parse", "HEAD");
      assertEquals(await git(remote, "rev-parse", "refs/heads/main"), local);
      const subjects = await git(remote, "log", "-3", "--format=%s", "main");
      assertMatch(subjects, new RegExp(`kb: add ${saved.id}: Ours after theirs`));
      assertMatch(subjects, /kb: add kb-0th3r: Someone else pushed this first/);
      assertEquals(await git(kb.dir, "status", "--porcelain"), "");
      await Deno.stat(join(kb.dir, theirs));
      const search = await runCli(["search", "someone else pushed", "--json"], { env: kb.env });
      assertStrictEquals(parseJson<{ id: string }[]>(search)[0]?.id, "kb-0th3r", show(search));
      // The commit was rewritten by the rebase: report the one that is on the remote.
      assertEquals(saved.commit, local, "the reported commit is the one that was pushed");
    },
  );

  await t.step("conflicting edit: exit 3, commit kept, rebase aborted, tree clean", async () => {
    await git(other, "pull", "--quiet", "--ff-only");
    const path = await entryPath(other, "kb-7q2mx");
    const text = await Deno.readTextFile(join(other, path));
    await Deno.writeTextFile(
      join(other, path),
      text.replace(/^title: .*$/m, "title: Rotate a leaked token (their wording)"),
    );
    await git(other, "commit", "--quiet", "-am", "their title for kb-7q2mx");
    await git(other, "push", "--quiet", "origin", "HEAD:main");
    const remoteHead = await git(remote, "rev-parse", "refs/heads/main");
    const localBefore = await git(kb.dir, "rev-parse", "HEAD");

    const result = await runCli(
      ["edit", "kb-7q2mx", "--title", "Rotate a leaked token (our wording)"],
      { env: kb.env },
    );
    assertEquals(result.code, 3, show(result));
    assertMatch(result.stderr, /kept/i, show(result));
    assertMatch(result.stderr, /kb-7q2mx|7q2mx/, show(result));
    assertNotMatch(result.stderr, STACK_FRAME);

    assertEquals(await git(kb.dir, "rev-parse", "HEAD~1"), localBefore);
    assertMatch(await git(kb.dir, "log", "-1", "--format=%s"), /edit kb-7q2mx/);
    assertEquals(await git(kb.dir, "rev-parse", "--abbrev-ref", "HEAD"), "main");
    assertEquals(await git(kb.dir, "status", "--porcelain"), "");
    for (const dir of ["rebase-merge", "rebase-apply"]) {
      await assertRejects(() => Deno.stat(join(kb.dir, ".git", dir)), Deno.errors.NotFound);
    }
    const ours = await Deno.readTextFile(join(kb.dir, await entryPath(kb.dir, "kb-7q2mx")));
    assertMatch(ours, /^title: Rotate a leaked token \(our wording\)$/m);
    assertEquals(await git(remote, "rev-parse", "refs/heads/main"), remoteHead);
  });

  await t.step("an unreachable remote: exit 3, the commit kept", async () => {
    await git(kb.dir, "remote", "set-url", "origin", join(kb.root, "gone.git"));
    const before = await git(kb.dir, "rev-parse", "HEAD");
    const result = await runCli(["add", "--title", "Offline entry", "--type", "note"], {
      env: kb.env,
    });
    assertEquals(result.code, 3, show(result));
    assertMatch(result.stderr, /kept/i);
    assertMatch(result.stderr, /gone\.git' does not appear to be a git repository\. /);
    assertEquals(await git(kb.dir, "rev-parse", "HEAD~1"), before);
    assertMatch(await git(kb.dir, "log", "-1", "--format=%s"), /Offline entry/);
    assertEquals(await git(kb.dir, "status", "--porcelain"), "");
    const index = await runCli(["index", "--json"], { env: kb.env });
    assertEquals(parseJson<{ mode: string }>(index).mode, "fresh", "indexed despite exit 3");
  });
});

Deno.test("no remote: NO_REMOTE in --json and in the text output", async () => {
  await using kb = await makeKb();
  const [json, text] = await Promise.all([
    runCli(["add", "--title", "Local only one", "--type", "note", "--json"], { env: kb.env }),
    runCli(["add", "--title", "Local only two", "--type", "note"], { env: kb.env }),
  ]);
  assertOk(json);
  assertOk(text);
  assertEquals(parseJson<SaveJson>(json).push, "NO_REMOTE");
  assertMatch(text.stdout, /NO_REMOTE/);
  assertEquals(await git(kb.dir, "rev-list", "--count", "HEAD"), "3");
});

Deno.test("no git identity configured anywhere: add and init still commit", async () => {
  await using kb = await makeKb();
  await using bare = await makeSandbox();
  const env = {
    TMPDIR: kb.tmp,
    HOME: bare.home,
    XDG_CONFIG_HOME: bare.config,
    GIT_CONFIG_NOSYSTEM: "1",
    NO_COLOR: "1",
  };
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const newKb = join(bare.root, "new-kb");
  const [add, init] = await Promise.all([
    runCli(["add", "--title", "Committed without identity", "--type", "note"], {
      env: { ...env, KB_DIR: kb.dir },
    }),
    runCli(["init", newKb], { env }),
  ]);
  assertOk(add);
  assertEquals(await git(kb.dir, "rev-parse", "HEAD~1"), head);
  assertMatch(await git(kb.dir, "log", "-1", "--format=%s"), /Committed without identity/);
  assertMatch(await git(kb.dir, "log", "-1", "--format=%an <%ae>"), /\S+ <\S+>/);
  assertEquals(await git(kb.dir, "status", "--porcelain"), "");
  assertOk(init);
  assertEquals(await git(newKb, "rev-list", "--count", "HEAD"), "1");
  assertEquals(await git(newKb, "status", "--porcelain"), "");
});

Deno.test("a lock file left by a crashed save long ago does not block the next save", async () => {
  await using kb = await makeKb();
  const lock = join(kb.dir, ".git", "git-kb.lock");
  await Deno.writeTextFile(lock, "99999\n");
  const old = new Date(Date.now() - 60 * 60 * 1000);
  await Deno.utime(lock, old, old);
  const started = performance.now();
  const result = await runCli(["add", "--title", "After a crash", "--type", "note"], {
    env: kb.env,
  });
  assertOk(result);
  assert(performance.now() - started < 20_000, "the stale lock was broken, not waited out");
  assertMatch(await git(kb.dir, "log", "-1", "--format=%s"), /After a crash/);
  await assertRejects(() => Deno.stat(lock), Deno.errors.NotFound);
});

Deno.test("edit --body-file of a kernel rule as get prints it: kernel: false takes it out of the kernel; a block that leaves kernel out leaves it in", async () => {
  await using kb = await makeKb();
  const added = await runCli(
    [
      "add",
      "--title",
      "Always squash",
      "--type",
      "rule",
      "--kernel",
      "--body",
      "Squash.",
      "--json",
    ],
    { env: kb.env },
  );
  assertOk(added);
  const { id, path } = parseJson<SaveJson>(added);
  const got = await runCli(["get", id], { env: kb.env });
  assertOk(got);
  assertMatch(got.stdout, /^kernel: true$/m);
  const file = join(kb.root, "edited.md");

  await Deno.writeTextFile(
    file,
    got.stdout.replace("kernel: true\n", "").replace("Squash.", "Squash merges."),
  );
  const kept = await runCli(["edit", id, "--body-file", file], { env: kb.env });
  assertOk(kept);
  assertStrictEquals((await readEntry(kb, path)).fields.kernel, true, "a field not given is kept");

  await Deno.writeTextFile(file, got.stdout.replace("kernel: true", "kernel: false"));
  const edited = await runCli(["edit", id, "--body-file", file], { env: kb.env });
  assertOk(edited);
  assertMatch(edited.stderr, /^note: read [^\n]*\bkernel\b[^\n]* from the frontmatter of /m);
  assertNotMatch(JSON.stringify((await readEntry(kb, path)).fields), /"kernel":true/);
  const after = await runCli(["get", id], { env: kb.env });
  assertMatch(after.stdout, /^kernel: false$/m);
});

Deno.test("add --id of an id a note written by hand holds in its frontmatter only: refused, nothing written, the note named", async () => {
  await using kb = await makeKb();
  const path = await entryPath(kb.dir, "kb-2yb6n");
  // The note carries its id in its frontmatter, not in its name; the original is gone.
  await Deno.rename(join(kb.dir, path), join(kb.dir, "entries", "by-hand.md"));
  await git(kb.dir, "add", "-A");
  await git(kb.dir, "commit", "--quiet", "-m", "renamed by hand");
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const added = await runCli(
    ["add", "--title", "Another", "--type", "note", "--id", "kb-2yb6n", "--body", "x"],
    { env: kb.env },
  );
  assertEquals(added.code, 1, show(added));
  assertMatch(
    added.stderr,
    /kb-2yb6n is already used by entries\/by-hand\.md; ids are never reused/,
  );
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head, "nothing was committed");
  assertEquals(await git(kb.dir, "status", "--porcelain"), "");
  // An id no file holds is taken as before.
  const fresh = await runCli(
    ["add", "--title", "Another", "--type", "note", "--id", "kb-n3w1d", "--body", "x"],
    { env: kb.env },
  );
  assertEquals(fresh.code, 0, show(fresh));
});
