/**
 * `add` and `edit` through the real CLI with fake editors (small shell scripts passed as EDITOR):
 * what the user typed is never thrown away, flags are checked before an editor opens, the
 * template of a new entry, the private drafts folder, list flags, strict UTF-8 bodies.
 *
 * @module
 */
import {
  assert,
  assertEquals,
  assertMatch,
  assertNotMatch,
  assertStringIncludes,
} from "@std/assert";
import { join } from "@std/path/posix/join";
import { flagsFor } from "../app/permissions.ts";
import { shellCommand } from "../core/shell/quote.ts";
import {
  cacheRootOf,
  childEnv,
  denoChildEnv,
  denoDir,
  entryPath,
  exists,
  fileLimitBlock,
  git,
  type Kb,
  MAIN,
  makeKb,
  parseJson,
  ROOT,
  runCli,
  runCliWithFileLimit,
  type RunResult,
  show,
} from "./helpers.ts";
import { runProcess } from "../io/process.ts";

const ID = "kb-7q2mx";

/** Write an executable shell script into the knowledge base's temp root; returns its path. */
async function script(kb: Kb, name: string, body: string): Promise<string> {
  const path = join(kb.root, name);
  await Deno.writeTextFile(path, `#!/bin/sh\nset -e\n${body}\n`);
  await Deno.chmod(path, 0o755);
  return path;
}

/** An editor that breaks the type and adds a paragraph. */
function breakingEditor(kb: Kb): Promise<string> {
  return script(
    kb,
    "break.sh",
    `sed -i 's/^type: .*/type: howot/' "$1"\nprintf '\\nMy new paragraph.\\n' >> "$1"`,
  );
}

/** An editor that sets the type back to howto, recording the text it was given. */
function fixingEditor(kb: Kb): Promise<string> {
  return script(
    kb,
    "fix.sh",
    `cp "$1" "${join(kb.root, "seen.md")}"\nsed -i 's/^type: .*/type: howto/' "$1"`,
  );
}

function draftsFolder(kb: Kb): string {
  return join(kb.tmp, "git-kb", "drafts");
}

/** The draft path and the resume command a kept draft's message names. */
function keptDraft(result: RunResult): { path: string; resume: string } {
  const path = /What you wrote is kept in (.+)$/m.exec(result.stderr)?.[1];
  const resume = /^ {2}(git-kb .+)$/m.exec(result.stderr)?.[1];
  assert(path && resume, show(result));
  return { path, resume };
}

/** The words `sh` reads from a printed command line. */
async function shellWords(line: string): Promise<string[]> {
  const output = await runProcess("sh", ["-c", `set -- ${line}; printf '%s\\0' "$@"`], {});
  return output.stdout.split("\0").slice(0, -1);
}

Deno.test("edit: a draft that fails validation is kept with the problems on top; --from-draft resumes it", async () => {
  await using kb = await makeKb();
  const path = await entryPath(kb.dir, ID);
  const before = await Deno.readTextFile(join(kb.dir, path));
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const failed = await runCli(["edit", ID], {
    env: { ...kb.env, EDITOR: await breakingEditor(kb) },
  });
  assertEquals(failed.code, 1, show(failed));
  assertMatch(failed.stderr, /type: "howot" is not a type/);
  const draft = keptDraft(failed);
  const kept = await Deno.readTextFile(draft.path);
  assertMatch(kept, /My new paragraph\./, "what the user typed is in the draft");
  assertMatch(kept, /^# Entry kb-7q2mx is not valid; nothing was written\n# {3}type: "howot"/);
  assertEquals((await Deno.stat(draft.path)).mode! & 0o777, 0o600);
  assertEquals((await Deno.stat(draftsFolder(kb))).mode! & 0o777, 0o700);
  assertEquals(await Deno.readTextFile(join(kb.dir, path)), before, "the entry is untouched");
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head);

  const [program, ...args] = await shellWords(draft.resume);
  assertEquals(program, "git-kb");
  const resumed = await runCli(args, { env: { ...kb.env, EDITOR: await fixingEditor(kb) } });
  assertEquals(resumed.code, 0, show(resumed));
  const saved = await Deno.readTextFile(join(kb.dir, path));
  assertMatch(saved, /\ntype: howto\n/);
  assertMatch(saved, /My new paragraph\.\n$/);
  assert(saved.startsWith("---\n"), "the notes are not saved");
  assertNotMatch(saved, /is not valid/);
  assertMatch(await Deno.readTextFile(join(kb.root, "seen.md")), /^# Entry kb-7q2mx/);
  assertEquals(await exists(draft.path), false, "a saved draft is removed");
});

Deno.test("edit on a terminal: the editor reopens with the problems at the top until it is valid", async (t) => {
  if (!await hasScriptCommand()) {
    t.step("skipped: no script(1) to give the CLI a terminal", () => {});
    return;
  }
  await using kb = await makeKb();
  const rounds = join(kb.root, "rounds");
  const editor = await script(
    kb,
    "twice.sh",
    [
      `echo x >> "${rounds}"`,
      `if [ "$(wc -l < "${rounds}")" -eq 1 ]; then sed -i 's/^type: .*/type: howot/' "$1";`,
      `printf '\\nTyped on a terminal.\\n' >> "$1";`,
      `else cp "$1" "${join(kb.root, "second.md")}"; sed -i 's/^type: .*/type: howto/' "$1"; fi`,
    ].join("\n"),
  );
  const env = childEnv({ ...kb.env, EDITOR: editor });
  const command = shellCommand([
    Deno.execPath(),
    "run",
    ...flagsFor("edit", cacheRootOf(env), editor),
    MAIN,
    "edit",
    ID,
  ]);
  const result = await runProcess("script", ["-qec", command, "/dev/null"], {
    cwd: ROOT,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", DENO_DIR: await denoDir(), ...env },
  });
  assertEquals(result.code, 0, `${result.stdout}\n${result.stderr}`);
  assertEquals((await Deno.readTextFile(rounds)).trim().split("\n").length, 2);
  const second = await Deno.readTextFile(join(kb.root, "second.md"));
  assertMatch(second, /^# Entry kb-7q2mx is not valid; nothing was written\n/);
  assertMatch(second, /Typed on a terminal\./);
  const saved = await Deno.readTextFile(join(kb.dir, await entryPath(kb.dir, ID)));
  assertMatch(saved, /\ntype: howto\n[^]*Typed on a terminal\.\n$/);
  assert(saved.startsWith("---\n"), saved);
  assertNotMatch(saved, /is not valid/);
  assertEquals([...Deno.readDirSync(draftsFolder(kb))], [], "no draft left");
});

async function hasScriptCommand(): Promise<boolean> {
  try {
    return (await runProcess("script", ["--version"], {})).code === 0;
  } catch {
    return false;
  }
}

Deno.test("add --edit opens a template of every field and reads the whole text as the entry", async () => {
  await using kb = await makeKb();
  const seen = join(kb.root, "template.md");
  const editor = await script(
    kb,
    "fill.sh",
    [
      `cp "$1" "${seen}"`,
      `sed -i "s/^title: .*/title: Written in the template/; s/^tags: .*/tags: [alpha, beta]/" "$1"`,
      `sed -i "s/^links: .*/links: [{ rel: related, to: kb-7q2mx }]/" "$1"`,
      `printf 'The body.\\n' >> "$1"`,
    ].join("\n"),
  );
  const result = await runCli(["add", "--edit", "--type", "howto", "--alias", "tpl", "--json"], {
    env: { ...kb.env, EDITOR: editor },
  });
  assertEquals(result.code, 0, show(result));
  const template = await Deno.readTextFile(seen);
  for (const line of ["title: ''", "type: howto", "aliases: [tpl]", "links: []", "source:"]) {
    assert(template.includes(`\n${line}\n`), `template has ${line}:\n${template}`);
  }
  assertMatch(template, /\n# title: required/);
  const { path } = parseJson<{ path: string }>(result);
  assertMatch(path, /-written-in-the-template\.md$/);
  const saved = await Deno.readTextFile(join(kb.dir, path));
  assertMatch(saved, /\ntitle: Written in the template\n/);
  assertMatch(saved, /\ntags: \[alpha, beta\]\n/);
  assertMatch(saved, /\n {2}- \{ rel: related, to: kb-7q2mx \}\n/);
  assert(saved.endsWith("\n---\nThe body.\n"), saved);
  assertNotMatch(saved, /^#/m, "no template comment is saved");
});

Deno.test("add checks every flag before the editor opens, and refuses values that would inject a field", async (t) => {
  await using kb = await makeKb();
  const marker = join(kb.root, "editor-ran");
  const editor = await script(kb, "marker.sh", `touch "${marker}"`);
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const cases: [string, string[], RegExp][] = [
    [
      "a link to no entry",
      ["--link", "related:kb-nope1"],
      /links\[0\]\.to: kb-nope1 does not exist/,
    ],
    ["a bad type", ["--type", "recipe"], /type: "recipe" is not a type/],
    ["a bad status", ["--status", "done"], /status: "done" is not a status/],
    ["an id with a space", ["--id", "kb-aaaaa "], /id: "kb-aaaaa " is not an id/],
    ["an id with a new line", ["--id", "kb-ccccc\nsource: x"], /id: "kb-ccccc\\nsource: x"/],
  ];
  for (const [name, flags, message] of cases) {
    await t.step(name, async () => {
      const result = await runCli(["add", "--edit", ...flags], {
        env: { ...kb.env, EDITOR: editor },
      });
      assertEquals(result.code, 1, show(result));
      assertMatch(result.stderr, /the editor was not opened/);
      assertMatch(result.stderr, message);
      assertEquals(await exists(marker), false, "the editor did not open");
    });
  }
  await t.step("without --edit, a type holding a new line is refused", async () => {
    const result = await runCli(
      ["add", "--title", "Injected", "--type", "note\nsource: https://evil.example"],
      { env: kb.env },
    );
    assertEquals(result.code, 1, show(result));
    assertMatch(result.stderr, /type: "note\\nsource/);
  });
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head, "nothing committed");
});

Deno.test("add --edit keeps an invalid entry as a draft; add --from-draft saves it once fixed", async () => {
  await using kb = await makeKb();
  const typing = await script(kb, "type.sh", `printf 'A paragraph worth keeping.\\n' >> "$1"`);
  const failed = await runCli(["add", "--edit", "--type", "note"], {
    env: { ...kb.env, EDITOR: typing },
  });
  assertEquals(failed.code, 1, show(failed));
  assertMatch(failed.stderr, /title: is required|title: must be a non-empty string/);
  const draft = keptDraft(failed);
  assertMatch(await Deno.readTextFile(draft.path), /A paragraph worth keeping\./);
  const [, ...args] = await shellWords(draft.resume);
  assertEquals(args.slice(0, 2), ["add", "--from-draft"]);
  const titling = await script(kb, "title.sh", `sed -i "s/^title: .*/title: Kept draft/" "$1"`);
  const resumed = await runCli([...args, "--json"], { env: { ...kb.env, EDITOR: titling } });
  assertEquals(resumed.code, 0, show(resumed));
  const saved = await Deno.readTextFile(join(kb.dir, parseJson<{ path: string }>(resumed).path));
  assertMatch(saved, /\ntitle: Kept draft\n[^]*A paragraph worth keeping\.\n$/);
  assertEquals(await exists(draft.path), false);
});

Deno.test("the drafts folder is private: a planted link or another user's folder is refused", async (t) => {
  await using kb = await makeKb();
  const marker = join(kb.root, "editor-ran");
  const editor = await script(kb, "marker.sh", `touch "${marker}"`);
  const victim = join(kb.root, "victim");
  await Deno.mkdir(victim);
  await Deno.writeTextFile(join(victim, "precious.txt"), "keep me\n");
  await Deno.mkdir(join(kb.tmp, "git-kb"), { recursive: true });

  await t.step("drafts as a symlink to another folder", async () => {
    await Deno.symlink(victim, draftsFolder(kb));
    const result = await runCli(["edit", ID], { env: { ...kb.env, EDITOR: editor } });
    assertEquals(result.code, 1, show(result));
    assertMatch(result.stderr, /drafts is a symbolic link, not a folder/);
    assertEquals([...Deno.readDirSync(victim)].map((item) => item.name), ["precious.txt"]);
    assertEquals(await Deno.readTextFile(join(victim, "precious.txt")), "keep me\n");
    assertEquals(await exists(marker), false);
    await Deno.remove(draftsFolder(kb));
  });

  await t.step("a folder of its own with open permissions is closed to 0700", async () => {
    await Deno.mkdir(draftsFolder(kb), { mode: 0o777 });
    await Deno.chmod(draftsFolder(kb), 0o777);
    const result = await runCli(["edit", ID], { env: { ...kb.env, EDITOR: editor } });
    assertEquals(result.code, 0, show(result));
    assertMatch(result.stdout, /No changes/);
    assertEquals((await Deno.stat(draftsFolder(kb))).mode! & 0o777, 0o700);
    assertEquals([...Deno.readDirSync(draftsFolder(kb))], [], "the unchanged draft is gone");
  });

  if (Deno.uid() === 0) {
    await t.step("a folder another user owns", async () => {
      await Deno.chown(draftsFolder(kb), 65534, 65534);
      const result = await runCli(["edit", ID], { env: { ...kb.env, EDITOR: editor } });
      assertEquals(result.code, 1, show(result));
      assertMatch(result.stderr, /belongs to uid 65534, not to you/);
    });
  }
});

Deno.test("edit without field flags runs the editor without a terminal; with no editor set, exit 2", async () => {
  await using kb = await makeKb();
  const editor = await script(
    kb,
    "retitle.sh",
    `sed -i "s/^title: .*/title: Retitled by a script/" "$1"`,
  );
  const edited = await runCli(["edit", ID], { env: { ...kb.env, EDITOR: editor } });
  assertEquals(edited.code, 0, show(edited));
  assertMatch(edited.stdout, /Edited kb-7q2mx/);
  assertMatch(
    await git(kb.dir, "log", "-1", "--format=%s"),
    /edit kb-7q2mx: Retitled by a script \(title\)/,
  );

  const none = await runCli(["edit", ID], { env: kb.env });
  assertEquals(none.code, 2, show(none));
  assertMatch(none.stderr, /export EDITOR=/);
});

Deno.test("EDITOR is read as sh reads its words: a program path with a space, quoted arguments", async () => {
  await using kb = await makeKb();
  const folder = join(kb.root, "my editors");
  await Deno.mkdir(folder);
  const seen = join(kb.root, "arguments");
  // Records its arguments, one per line in brackets, then retitles the file it is given (the last).
  const editor = await script(
    kb,
    "my editors/re title.sh",
    `printf '[%s]\\n' "$@" > "${seen}"\nfor file; do :; done\n` +
      `sed -i "s/^title: .*/title: Retitled from a spaced path/" "$file"`,
  );
  const spaced = await runCli(["edit", ID], { env: { ...kb.env, EDITOR: `"${editor}" -a ""` } });
  assertEquals(spaced.code, 0, show(spaced));
  const [dash, empty, draft] = (await Deno.readTextFile(seen)).trimEnd().split("\n");
  assertEquals([dash, empty], ["[-a]", "[]"], "a quoted empty argument is one empty word");
  assertMatch(draft, /^\[\/.*\.md\]$/);
  assertMatch(await git(kb.dir, "log", "-1", "--format=%s"), /Retitled from a spaced path/);

  const sed = await runCli(["edit", ID], {
    env: { ...kb.env, EDITOR: `sed -i "s/^title: .*/title: Retitled by a quoted sed/"` },
  });
  assertEquals(sed.code, 0, show(sed));
  assertMatch(await git(kb.dir, "log", "-1", "--format=%s"), /Retitled by a quoted sed/);
});

Deno.test("an EDITOR only a shell could run ($(…), ;) is refused in one line before anything opens", async () => {
  await using kb = await makeKb();
  const marker = join(kb.root, "editor-ran");
  const editor = await script(kb, "marker.sh", `touch "${marker}"`);
  const head = await git(kb.dir, "rev-parse", "HEAD");
  for (
    const [value, cause] of [
      [`${editor} "$(date)"`, "a \\$ \\(an expansion\\)"],
      [`${editor}; touch x`, "a ; \\(a second command\\)"],
    ]
  ) {
    const result = await runCli(["edit", ID], { env: { ...kb.env, VISUAL: value } });
    assertEquals(result.code, 2, show(result));
    assertEquals(result.stderr.trimEnd().split("\n").length, 1, show(result));
    assertMatch(
      result.stderr,
      new RegExp(
        `VISUAL='.*' is not a command git-kb can run without a shell: it has ${cause}\\. ` +
          "Set VISUAL to a program and its arguments, .* or to a script that does the rest",
      ),
    );
    assertEquals(await exists(marker), false, "the editor did not run");
    const drafts = await exists(draftsFolder(kb)) ? [...Deno.readDirSync(draftsFolder(kb))] : [];
    assertEquals(drafts, [], "no draft was written");
  }
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head, "nothing was committed");
});

Deno.test("an EDITOR that is not installed is named in one line, with the export that sets one; no draft is left", async () => {
  await using kb = await makeKb();
  const head = await git(kb.dir, "rev-parse", "HEAD");
  for (
    const [variable, value, where, example] of [
      [
        "EDITOR",
        "no-such-editor-nu46",
        "no such program is on PATH",
        "nano (or EDITOR='code --wait')",
      ],
      [
        "VISUAL",
        join(kb.root, "gone", "ed"),
        "there is no such file",
        "nano (or VISUAL='code --wait')",
      ],
      // The example is never the editor that is missing.
      [
        "EDITOR",
        join(kb.root, "gone", "nano"),
        "there is no such file",
        "'code --wait' (or EDITOR=vi)",
      ],
    ]
  ) {
    const result = await runCli(["edit", ID], { env: { ...kb.env, [variable]: value } });
    assertEquals(result.code, 2, show(result));
    // Deno's own note on an --allow-run program not on PATH, which the launcher's --quiet drops.
    const ours = result.stderr.trimEnd().split("\n").filter((line) => !line.startsWith("Info "));
    assertEquals(ours.length, 1, show(result));
    assertStringIncludes(
      ours[0],
      `the editor was not opened: ${variable} names ${value}, and ${where}. Set ${variable} to ` +
        `an editor that is installed, e.g. export ${variable}=${example}`,
    );
    const drafts = await exists(draftsFolder(kb)) ? [...Deno.readDirSync(draftsFolder(kb))] : [];
    assertEquals(drafts, [], "no draft was left");
  }
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head, "nothing was committed");
});

Deno.test("--from-draft with an editor that cannot start keeps the draft it was given", async () => {
  await using kb = await makeKb();
  const failed = await runCli(["edit", ID], {
    env: { ...kb.env, EDITOR: await breakingEditor(kb) },
  });
  assertEquals(failed.code, 1, show(failed));
  const draft = keptDraft(failed);
  const kept = await Deno.readTextFile(draft.path);
  const [, ...args] = await shellWords(draft.resume);
  const missing = await runCli(args, { env: { ...kb.env, EDITOR: "no-such-editor-nu46" } });
  assertEquals(missing.code, 2, show(missing));
  assertEquals(await Deno.readTextFile(draft.path), kept, "what the user wrote is still there");
  const resumed = await runCli(args, { env: { ...kb.env, EDITOR: await fixingEditor(kb) } });
  assertEquals(resumed.code, 0, show(resumed));
});

Deno.test("an EDITOR that is a folder is refused in one line before a draft is written", async () => {
  await using kb = await makeKb();
  // The folder holding the home, where the drafts are: granted to run, Deno refused writing them.
  const folder = join(kb.root, "my editors");
  await Deno.mkdir(folder);
  for (const value of [kb.root, `"${folder}" -w`]) {
    const result = await runCli(["edit", ID], { env: { ...kb.env, EDITOR: value } });
    assertEquals(result.code, 2, show(result));
    assertEquals(result.stderr.trimEnd().split("\n").length, 1, show(result));
    assertMatch(
      result.stderr,
      /EDITOR=.* is not a command git-kb can run without a shell: its program .* is a folder\./,
    );
    const drafts = await exists(draftsFolder(kb)) ? [...Deno.readDirSync(draftsFolder(kb))] : [];
    assertEquals(drafts, [], "no draft was written");
  }
});

Deno.test("edit list flags: --link adds, --remove-link and --clear-links take out, the output says what changed", async (t) => {
  await using kb = await makeKb();
  const path = await entryPath(kb.dir, ID);
  const links = async () =>
    [...(await Deno.readTextFile(join(kb.dir, path))).matchAll(/rel: ([a-z-]+), to: (kb-\w+)/g)]
      .map((match) => `${match[1]}:${match[2]}`);

  await t.step("--link adds a link and keeps the others", async () => {
    const result = await runCli(["edit", ID, "--link", "refines:kb-r4b9t"], { env: kb.env });
    assertEquals(result.code, 0, show(result));
    assertEquals(await links(), [
      "supersedes:kb-3hd8w",
      "related:kb-f8z2t",
      "refines:kb-r4b9t",
    ]);
    assertMatch(result.stdout, /^ {2}links: \+refines:kb-r4b9t$/m);
  });

  await t.step("--remove-link by id, aliases added and removed", async () => {
    const result = await runCli(
      [
        "edit",
        ID,
        "--remove-link",
        "kb-3hd8w",
        "--add-alias",
        "npm token",
        "--remove-alias",
        "cf",
        "--json",
      ],
      { env: kb.env },
    );
    assertEquals(result.code, 0, show(result));
    assertEquals(await links(), ["related:kb-f8z2t", "refines:kb-r4b9t"]);
    const saved = parseJson<{ lists: unknown[] }>(result);
    assertEquals(saved.lists, [
      { field: "aliases", added: ["npm token"], removed: ["cf"] },
      { field: "links", added: [], removed: ["supersedes:kb-3hd8w"] },
    ]);
  });

  await t.step("--clear-links with --link leaves exactly that link", async () => {
    const result = await runCli(["edit", ID, "--clear-links", "--link", "related:kb-r4b9t"], {
      env: kb.env,
    });
    assertEquals(result.code, 0, show(result));
    assertEquals(await links(), ["related:kb-r4b9t"]);
    assertMatch(result.stdout, /links: \+related:kb-r4b9t -related:kb-f8z2t -refines:kb-r4b9t/);
  });
});

Deno.test("edit --add-applies-to adds to applies_to as --applies-to does, beside --remove-applies-to", async () => {
  await using kb = await makeKb();
  const added = await runCli(
    ["edit", ID, "--add-applies-to", "writing", "--applies-to", "reviewing"],
    { env: kb.env },
  );
  assertEquals(added.code, 0, show(added));
  assertMatch(added.stdout, /^ {2}applies_to: \+reviewing \+writing$/m, show(added));
  const removed = await runCli(["edit", ID, "--remove-applies-to", "writing"], { env: kb.env });
  assertEquals(removed.code, 0, show(removed));
  const path = join(kb.dir, await entryPath(kb.dir, ID));
  assertMatch(await Deno.readTextFile(path), /^applies_to: \[reviewing\]$/m);
});

Deno.test("edit: a --remove-… that takes nothing out is named, with what the list holds", async () => {
  await using kb = await makeKb();
  const result = await runCli([
    "edit",
    ID,
    ...["--remove-tag", "nosuch", "--remove-tag", "npm", "--remove-link", "kb-zzzzz"],
    ...["--add-alias", "fresh", "--remove-alias", "fresh"],
  ], { env: kb.env });
  assertEquals(result.code, 0, show(result));
  assertMatch(result.stdout, /^ {2}tags: -npm$/m);
  assertEquals(result.stderr.trimEnd().split("\n"), [
    "note: --remove-tag nosuch took nothing out of kb-7q2mx (its tags: security, credentials, " +
    "npm, cloudflare, ci/cd)",
    "note: --remove-link kb-zzzzz took nothing out of kb-7q2mx (its links: " +
    "supersedes:kb-3hd8w, related:kb-f8z2t)",
  ]);
  const none = await runCli(["edit", ID, "--remove-applies-to", "coding"], { env: kb.env });
  assertEquals(none.code, 0, show(none));
  assertMatch(none.stdout, /No changes to kb-7q2mx/);
  assertStringIncludes(
    none.stderr,
    "note: --remove-applies-to coding took nothing out of kb-7q2mx (it has no applies_to)",
  );
});

Deno.test("edit and rm of a mistyped id ask whether the entry one character off was meant, and change nothing", async () => {
  await using kb = await makeKb();
  const head = await git(kb.dir, "rev-parse", "HEAD");
  for (
    const [command, typed] of [
      ["edit", ["kb-7q2nx", "--add-tag", "incident"]],
      ["rm", ["7q2mx"]],
      ["edit", ["KB-7Q2MX", "--add-tag", "incident"]],
    ] as const
  ) {
    const result = await runCli([command, ...typed], { env: kb.env });
    assertEquals(result.code, 1, show(result));
    assertStringIncludes(
      result.stderr,
      `git-kb ${command}: no entry ${typed[0]} in ${kb.dir}; did you mean ${ID} ` +
        `(entries/kb-7q2mx-rotate-a-leaked-npm-or-cloudflare-token.md)? Give that id, or find ` +
        `ids with git-kb search <words> --kb ${kb.dir}`,
    );
  }
  const far = await runCli(["rm", "kb-zzzzz"], { env: kb.env });
  assertEquals(far.code, 1, show(far));
  assertStringIncludes(far.stderr, `no entry kb-zzzzz in ${kb.dir}; find ids with git-kb search`);
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head, "nothing was committed");
});

Deno.test("--body-file refuses a file that is not UTF-8, naming the line, and saves nothing", async () => {
  await using kb = await makeKb();
  const file = join(kb.root, "latin1.md");
  await Deno.writeFile(
    file,
    new Uint8Array([...new TextEncoder().encode("Plain line\ncaf"), 0xe9, 0x0a]),
  );
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const result = await runCli(
    ["add", "--title", "Latin", "--type", "note", "--body-file", file],
    {
      env: kb.env,
    },
  );
  assertEquals(result.code, 2, show(result));
  assertMatch(result.stderr, /not valid UTF-8 \(byte 0xE9 at offset \d+, line 2\)/);
  assertMatch(result.stderr, /iconv -f latin1 -t utf-8/);
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head);
});

Deno.test("--body-file of a folder is named as a folder, with no system error, and saves nothing", async () => {
  await using kb = await makeKb();
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const result = await runCli(
    ["add", "--title", "Folder", "--type", "note", "--body-file", kb.root],
    { env: kb.env },
  );
  assertEquals(result.code, 2, show(result));
  assertMatch(
    result.stderr,
    new RegExp(
      `^git-kb add: --body-file ${kb.root} is a folder; give the file that holds the text\n`,
    ),
  );
  assertNotMatch(result.stderr, /os error/);
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head);
});

Deno.test("a supersedes link to an entry still active prints the command that marks it superseded", async () => {
  await using kb = await makeKb();
  const added = await runCli(
    [
      "add",
      "--title",
      "Harden GitHub Actions again",
      "--type",
      "howto",
      "--body",
      "New.",
      "--link",
      "supersedes:kb-f8z2t",
    ],
    { env: kb.env },
  );
  assertEquals(added.code, 0, show(added));
  assertMatch(
    added.stderr,
    /^note: kb-f8z2t is still active although kb-\w{5} supersedes it; mark it: git-kb edit kb-f8z2t --status superseded$/m,
  );
  const already = await runCli(["edit", ID, "--title", "Rotate a leaked npm token now"], {
    env: kb.env,
  });
  assertEquals(already.code, 0, show(already));
  assertNotMatch(already.stderr, /note:/, "kb-3hd8w is superseded already");
});

Deno.test("a draft fixed by hand is saved by --from-draft with no editor set, and kept while invalid", async () => {
  await using kb = await makeKb();
  const path = await entryPath(kb.dir, ID);
  const failed = await runCli(["edit", ID], {
    env: { ...kb.env, EDITOR: await breakingEditor(kb) },
  });
  assertEquals(failed.code, 1, show(failed));
  const draft = keptDraft(failed);
  const [, ...args] = await shellWords(draft.resume);
  const still = await runCli(args, { env: kb.env });
  assertEquals(still.code, 1, show(still));
  assertMatch(still.stderr, /type: "howot" is not a type/);
  assertEquals(await exists(draft.path), true, "the draft is kept while it is invalid");
  const text = await Deno.readTextFile(draft.path);
  await Deno.writeTextFile(draft.path, text.replace(/^type: howot$/m, "type: howto"));
  const saved = await runCli(args, { env: kb.env });
  assertEquals(saved.code, 0, show(saved));
  assertMatch(await Deno.readTextFile(join(kb.dir, path)), /My new paragraph\.\n$/);
  assertEquals(await exists(draft.path), false, "a saved draft is removed");
});

/** Write a hand-written entry file and commit it; returns its path. */
async function handWritten(kb: Kb, name: string, text: string): Promise<string> {
  const path = join(kb.dir, "entries", name);
  await Deno.writeTextFile(path, text);
  await git(kb.dir, "add", "-A");
  await git(kb.dir, "commit", "--quiet", "-m", "hand-written");
  return path;
}

Deno.test("edit in the editor of an entry with a repairable problem opens it repaired and saves it to the contract", async () => {
  await using kb = await makeKb();
  const path = await handWritten(
    kb,
    "kb-han03-hand.md",
    "---\nid: kb-han03\ntitle: Hand: written\ntype: Howto\ncreated: 2024-01-02T10:00\n---\n" +
      "Steps as I wrote them.\n",
  );
  const seen = join(kb.root, "seen.md");
  const editor = await script(kb, "look.sh", `cp "$1" "${seen}"`);
  const edited = await runCli(["edit", "kb-han03"], { env: { ...kb.env, EDITOR: editor } });
  assertEquals(edited.code, 0, show(edited));
  const opened = await Deno.readTextFile(seen);
  assertMatch(opened, /^# kb-han03 was repaired to the entry contract/);
  assertMatch(opened, /^# {3}type: /m, "the repairs are named at the top");
  const text = await Deno.readTextFile(path);
  assertMatch(text, /^---\nid: kb-han03\ntitle: 'Hand: written'\ntype: howto$/m);
  assertMatch(text, /^created: 2024-01-02$/m);
  assertMatch(text, /^updated: \d{4}-\d{2}-\d{2}$/m);
  assertMatch(text, /^Steps as I wrote them\.$/m);
  assertNotMatch(text, /^#/m, "the notes are not saved");
  assertMatch(await git(kb.dir, "log", "-1", "--format=%s"), /^kb: edit kb-han03: Hand: written/);
  assertEquals(await git(kb.dir, "status", "--porcelain"), "");
});

Deno.test("edit in the editor refuses a repair that would lose what is written, and opens nothing", async () => {
  await using kb = await makeKb();
  const before = "---\nid: kb-han04\ntitle: Recipe\ntype: recipe\ncreated: 2024-01-02\n" +
    "updated: 2024-01-02\n---\nFlour.\n";
  const path = await handWritten(kb, "kb-han04-recipe.md", before);
  const opened = join(kb.root, "opened");
  const editor = await script(kb, "mark.sh", `touch "${opened}"`);
  const edited = await runCli(["edit", "kb-han04"], { env: { ...kb.env, EDITOR: editor } });
  assertEquals(edited.code, 1, show(edited));
  assertMatch(edited.stderr, /type/);
  assertMatch(edited.stderr, /recipe/);
  assertEquals(await exists(opened), false, "the editor is not opened");
  assertEquals(await Deno.readTextFile(path), before);
});

Deno.test("add of a title an active entry has says so, with the rm and edit lines; pasted, rm takes the new one out", async () => {
  await using kb = await makeKb();
  const add = (title: string) =>
    runCli(["add", "--title", title, "--type", "howto", "--body", "Again."], { env: kb.env });
  // The same title but for case and spacing: named, with what to run when it repeats the other.
  const again = await add("rotate a leaked  NPM or Cloudflare token");
  assertEquals(again.code, 0, show(again));
  const id = again.stdout.match(/^Added (kb-\w{5}) /)?.[1];
  assert(id, show(again));
  const note = again.stderr.match(/^note: .*$/m)?.[0] ?? "";
  assertEquals(
    note,
    `note: ${ID} "Rotate a leaked npm or Cloudflare token" has the same title as ${id}; if ${id} ` +
      `repeats it, take ${id} out (git-kb rm ${id}) and change ${ID} instead (git-kb edit ${ID})`,
    show(again),
  );
  const rm = note.match(/\((git-kb rm kb-\w{5})\)/)![1].split(" ").slice(1);
  const removed = await runCli(rm, { env: kb.env });
  assertEquals(removed.code, 0, show(removed));
  assertEquals(
    await exists(join(kb.dir, "entries", `${id}-rotate-a-leaked-npm-or-cloudflare-token.md`)),
    false,
  );
  // A superseded entry of that title, or another title: nothing to say.
  const superseded = await add("Notes from the March token exposure");
  assertEquals(superseded.code, 0, show(superseded));
  assertNotMatch(superseded.stderr, /note:/, "kb-3hd8w is superseded");
  const other = await add("Rotate a leaked PyPI token");
  assertNotMatch(other.stderr, /note:/);
});

Deno.test("a draft kept when the disk is full holds all the user typed, and the error names it", async () => {
  await using kb = await makeKb();
  const block = await fileLimitBlock(kb.root);
  const blocks = Math.floor(4096 / block);
  const paragraph = "A line of what the user typed with care, to be kept whole.\n";
  const head = "---\nid: kb-zzzz2\ntitle: Long typed note\ntype: howot\n---\n";
  const lines = Math.floor((blocks * block - 64 - head.length) / paragraph.length);
  // Just under the limit: the notes on the problems take the draft past it.
  const text = head + paragraph.repeat(lines) + "The last line typed.\n";
  const typed = join(kb.root, "typed.md");
  await Deno.writeTextFile(typed, text);
  const editor = await script(kb, "long.sh", `cat "${typed}" > "$1"`);

  const result = await runCliWithFileLimit(blocks, ["add", "--edit"], {
    ...kb.env,
    EDITOR: editor,
  });
  assertEquals(result.code, 1, show(result));
  assertMatch(result.stderr, /type: "howot" is not a type/);
  assertMatch(result.stderr, /these reasons could not be added to the draft/);
  const draft = keptDraft(result);
  assertEquals(await Deno.readTextFile(draft.path), text, "the draft is as the user saved it");
  assertEquals([...Deno.readDirSync(draftsFolder(kb))].length, 1, "no temp file left");
});

Deno.test("edit: an entry changed on disk while it was being edited says so, not that it is invalid", async () => {
  await using kb = await makeKb();
  const path = await entryPath(kb.dir, ID);
  // Another command rewrites the entry's file while the user types.
  const editor = await script(
    kb,
    "raced.sh",
    `printf '\\nWritten meanwhile.\\n' >> "$KB_DIR/${path}"\n` +
      `printf '\\nTyped meanwhile.\\n' >> "$1"`,
  );
  const failed = await runCli(["edit", ID], { env: { ...kb.env, EDITOR: editor } });
  assertEquals(failed.code, 1, show(failed));
  assertMatch(failed.stderr, new RegExp(`Entry ${ID} changed while it was being edited; nothing`));
  assertMatch(failed.stderr, /changed on disk while it was being edited/);
  assertNotMatch(failed.stderr, /is not valid/);
  assertMatch(await Deno.readTextFile(join(kb.dir, path)), /Written meanwhile\./);
  assertMatch(await Deno.readTextFile(keptDraft(failed).path), /Typed meanwhile\./);
});

Deno.test("edit: an entry removed while it was being edited is not brought back unasked; the draft's add does", async () => {
  await using kb = await makeKb();
  const path = await entryPath(kb.dir, ID);
  // Another terminal removes the entry (git-kb rm, a sync) while the user types.
  const editor = await script(
    kb,
    "removed.sh",
    `git -C "$KB_DIR" rm --quiet -- '${path}'\ngit -C "$KB_DIR" commit --quiet -m removed\n` +
      `printf '\\nTyped while it went.\\n' >> "$1"`,
  );
  const failed = await runCli(["edit", ID], { env: { ...kb.env, EDITOR: editor } });
  assertEquals(failed.code, 1, show(failed));
  assertMatch(failed.stderr, /was removed while it was being edited/);
  assertNotMatch(failed.stderr, /is not valid/, "nothing is wrong with what was typed");
  assertEquals(await exists(join(kb.dir, path)), false, "the removal stands");
  assertEquals(await git(kb.dir, "log", "-1", "--format=%s"), "removed");
  const draft = keptDraft(failed);
  assertMatch(await Deno.readTextFile(draft.path), /Typed while it went\./);

  const [program, ...args] = await shellWords(draft.resume);
  assertEquals([program, ...args], ["git-kb", "add", "--from-draft", draft.path]);
  const added = await runCli(args, { env: { ...kb.env, EDITOR: "true" } });
  assertEquals(added.code, 0, show(added));
  assertMatch(await Deno.readTextFile(join(kb.dir, path)), /Typed while it went\.\n$/);
});

Deno.test("a body piped on stdin is kept in a draft when the save fails, and the printed command saves it", async (t) => {
  await using kb = await makeKb();
  const lock = join(kb.dir, ".git", "index.lock");
  const env = { ...kb.env, EDITOR: "" };
  for (
    const [name, args] of [
      ["add", ["add", "--title", "Piped in", "--type", "note", "--body-file", "-"]],
      ["edit", ["edit", ID, "--body-file", "-"]],
    ] as const
  ) {
    await t.step(name, async () => {
      const typed = `Typed into ${name}'s stdin, nowhere else.\n`;
      await Deno.writeTextFile(lock, "");
      const head = await git(kb.dir, "rev-parse", "HEAD");
      const failed = await runCli([...args], { env, stdin: typed });
      assertEquals(failed.code, 1, show(failed));
      assertMatch(failed.stderr, /index\.lock exists/);
      assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head, "nothing committed");
      const draft = keptDraft(failed);
      assert((await Deno.readTextFile(draft.path)).includes(typed), "the draft holds the body");
      await Deno.remove(lock);
      const [, ...resume] = await shellWords(draft.resume);
      assertEquals(
        resume.slice(0, name === "add" ? 1 : 2),
        name === "add" ? ["add"] : ["edit", ID],
      );
      const saved = await runCli(resume, { env });
      assertEquals(saved.code, 0, show(saved));
      assert((await git(kb.dir, "show", "HEAD")).includes(`+${typed.trim()}`), "saved as piped");
    });
  }
});

Deno.test("edit: an entry file replaced by a folder while it was being edited is named as such, not as removed", async () => {
  await using kb = await makeKb();
  const path = await entryPath(kb.dir, ID);
  const editor = await script(
    kb,
    "folder.sh",
    `rm -- "$KB_DIR/${path}"\nmkdir -- "$KB_DIR/${path}"\nprintf '\\nTyped.\\n' >> "$1"`,
  );
  const failed = await runCli(["edit", ID], { env: { ...kb.env, EDITOR: editor } });
  assertEquals(failed.code, 1, show(failed));
  assertMatch(failed.stderr, /is a folder, not an entry file/);
  assertNotMatch(failed.stderr, /was removed/);
  assertMatch(await Deno.readTextFile(keptDraft(failed).path), /Typed\./);
});

/**
 * `git-kb add --edit` in a process group of its own, as a terminal's foreground job is, whose
 * editor `editor` sends the whole group SIGINT, as Ctrl-C pressed in it does.
 */
async function addEditedThroughCtrlC(kb: Kb, editor: string): Promise<RunResult> {
  const env = { ...kb.env, EDITOR: editor };
  return await runProcess(Deno.execPath(), [
    "run",
    ...flagsFor("add", cacheRootOf(env), editor),
    MAIN,
    "add",
    "--edit",
    "--type",
    "note",
  ], { cwd: ROOT, clearEnv: true, env: await denoChildEnv(env), ownGroup: true });
}

Deno.test("Ctrl-C in the editor (vim takes it as Esc) does not end add --edit: what is saved is added; an editor it stops keeps the draft", async () => {
  await using kb = await makeKb();
  const fill =
    `sed -i "s/^title: .*/title: Typed through a Ctrl-C/" "$1"\nprintf 'Kept.\\n' >> "$1"`;
  const vimLike = await script(kb, "vim-like.sh", `trap '' INT\n${fill}\nkill -INT 0\nsleep 0.3`);
  const added = await addEditedThroughCtrlC(kb, vimLike);
  assertEquals(added.code, 0, show(added));
  assertMatch(added.stdout, /^Added kb-\w{5} entries\/kb-\w{5}-typed-through-a-ctrl-c\.md/m);

  const stopped = await script(kb, "stopped.sh", `${fill}\nkill -INT 0\nsleep 5`);
  const kept = await addEditedThroughCtrlC(kb, stopped);
  assertEquals(kept.code, 1, show(kept));
  assertMatch(
    kept.stderr,
    /the editor .*stopped\.sh was stopped by SIGINT\nWhat you wrote is kept in (.*)$/m,
  );
  const draft = kept.stderr.match(/^What you wrote is kept in (.*)$/m)![1];
  assertMatch(await Deno.readTextFile(draft), /title: Typed through a Ctrl-C/);
});
