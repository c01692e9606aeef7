/**
 * Every note of an import comes in whole, through the real CLI on real git: two folders that share
 * a relative path keep an entry each; a note a scanner dislikes comes in with the value masked
 * (or whole, when the user allows that one note); link text, descriptions and attachments survive;
 * a name or a value the contract cannot hold is fixed or cut, and the report says so.
 */
import { assert, assertEquals, assertMatch, assertStrictEquals } from "@std/assert";
import { join } from "@std/path/posix/join";
import { git, makeKb, parseJson, runCli, show, writeFolder } from "./helpers.ts";

interface ImportJson {
  added: string[];
  updated: string[];
  unchanged: string[];
  changes: string[];
  leftOut: { path: string; reason: string }[];
  masked: { path: string; line: number; kind: string }[];
  cut: { path: string; field: string; what: string }[];
  attachments: {
    brought: string[];
    copied: string[];
    missing: { path: string; target: string; reason: string }[];
  };
  save?: { commit: string; push: string };
}

/** The entry files of a knowledge base, name → text. */
async function entryFiles(kbDir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for await (const item of Deno.readDir(join(kbDir, "entries"))) {
    if (item.name.endsWith(".md")) {
      files.set(item.name, await Deno.readTextFile(join(kbDir, "entries", item.name)));
    }
  }
  return files;
}

async function importJson(
  env: Record<string, string>,
  ...args: string[]
): Promise<ImportJson> {
  const result = await runCli(["import", ...args, "--json"], { env });
  assertEquals(result.code, 0, show(result));
  return parseJson<ImportJson>(result);
}

Deno.test("import: two folders sharing a relative path keep an entry each; a rerun changes nothing", async () => {
  await using kb = await makeKb({ remote: true, empty: true });
  const work = join(kb.root, "work", "vault");
  const home = join(kb.root, "home", "vault");
  await writeFolder(work, { "Home.md": "# Home\n\nThe on-call rota is in the wiki.\n" });
  await writeFolder(home, { "Home.md": "# Home\n\nBuy milk and eggs.\n" });
  const first = await importJson(kb.env, work);
  assertEquals(first.added.length, 1);
  const second = await importJson(kb.env, home);
  assertEquals([second.added.length, second.updated.length], [1, 0], JSON.stringify(second));
  const texts = [...(await entryFiles(kb.dir)).values()];
  assertEquals(texts.length, 2);
  assert(texts.some((text) => text.includes("on-call rota")), "the work note is still there");
  assert(texts.some((text) => text.includes("Buy milk")), "the home note came in beside it");
  for (const folder of [work, home]) {
    const again = await importJson(kb.env, folder);
    assertEquals([again.added.length, again.updated.length, again.unchanged.length], [0, 0, 1]);
    assertEquals(again.save, undefined, "an unchanged rerun writes nothing");
  }
  await Deno.writeTextFile(join(home, "Home.md"), "# Home\n\nBuy bread.\n");
  const changed = await importJson(kb.env, home);
  assertEquals([changed.added.length, changed.updated.length], [0, 1]);
  const after = [...(await entryFiles(kb.dir)).values()];
  assert(
    after.some((text) => text.includes("on-call rota")),
    "the other folder's entry is untouched",
  );
  assert(after.some((text) => text.includes("Buy bread")));
});

Deno.test("import: notes a scanner dislikes come in; a real credential is masked where it was, one note may keep its own", async () => {
  await using kb = await makeKb({ remote: true, empty: true });
  const folder = join(kb.root, "notes");
  const token = "ghp_" + "R8x2Qm4Lk9Vb7Nc3Zt6Yw1Pf5Hs0Jd2Gu8Ea";
  await writeFolder(folder, {
    "Vault.md": "# Vault\n\nThe vault password is separate from the login.\n",
    "Router.md":
      "---\ntags: [home]\n---\n# Router\n\nOn first boot the default password is left blank.\n",
    "Signing.md": "# Signing\n\n```\ngpg:                using RSA key 4AEE18F83AFDEB23\n" +
      "Primary key fingerprint: 5DE3 E050 9C47 EA3C F04A  42D3 4AEE 18F8 3AFD EB23\n```\n",
    "Local db.md": "# Local db\n\n`DATABASE_URL=postgres://postgres:postgres@localhost:5432/app`\n",
    "Deploy.md": "---\ntags: [ci]\ncreated: 2024-01-02\n---\n# Deploy\n\nSteps first.\n\n" +
      `The CI token is ${token} for now.\nSee [[Vault]].\n`,
    "Keep.md": `# Keep\n\nMy own token: ${token}\n`,
  });
  const report = await importJson(kb.env, folder, "--allow-secret-in", "Keep.md");
  assertEquals(report.leftOut, [], "no note is left out");
  assertEquals(report.added.length, 6);
  assertEquals(
    report.masked.map(({ path, line, kind }) => `${path}:${line} ${kind}`),
    ["Deploy.md:9 github-token"],
    "the line is the source file's, frontmatter and title heading counted",
  );
  const texts = [...(await entryFiles(kb.dir)).values()];
  const deploy = texts.find((text) => text.includes("imported_from: Deploy.md"))!;
  assertMatch(deploy, /^The CI token is \[REDACTED:github-token\] for now\.$/m);
  assert(!deploy.includes(token));
  assert(texts.find((text) => text.includes("imported_from: Keep.md"))!.includes(token));
  const printed = await runCli(["import", folder, "--dry-run"], { env: kb.env });
  assert(!printed.stdout.includes(token), "the token is never printed");

  const wrong = await runCli(["import", folder, "--allow-secret-in", "Nope.md"], { env: kb.env });
  assertEquals(wrong.code, 1, show(wrong));
  assertMatch(wrong.stderr, /--allow-secret-in Nope\.md: no note of .* has that path/);
});

Deno.test("import: --allow-secret-in takes a note's path from the home folder, ~ typed in quotes", async () => {
  await using kb = await makeKb({ remote: true, empty: true });
  const folder = join(kb.env.HOME!, "My Notes");
  const token = "ghp_" + "R8x2Qm4Lk9Vb7Nc3Zt6Yw1Pf5Hs0Jd2Gu8Ea";
  await writeFolder(folder, { "Keep.md": `# Keep\n\nMy own token: ${token}\n` });
  const report = await importJson(kb.env, folder, "--allow-secret-in", "~/My Notes/Keep.md");
  assertEquals(report.masked, [], "the note named from ~ keeps its credential");
});

Deno.test("import: a note whose path holds a # (C#.md, F#/) keeps its own credential when allowed, and its embeds are found beside it", async () => {
  await using kb = await makeKb({ remote: true, empty: true });
  const folder = join(kb.root, "notes");
  const token = "ghp_" + "R8x2Qm4Lk9Vb7Nc3Zt6Yw1Pf5Hs0Jd2Gu8Ea";
  await writeFolder(folder, {
    "C#.md": `# C sharp\n\nMy own token: ${token}\n`,
    "F#/Pipes.md": "# Pipes\n\n![the pipeline](img/pipeline.png)\n",
    "F#/img/pipeline.png": "png bytes",
  });
  const report = await importJson(kb.env, folder, "--allow-secret-in", "C#.md");
  assertEquals(report.masked, [], "the note allowed keeps its credential");
  assertEquals(report.attachments.missing, []);
  assertEquals(report.attachments.brought, ["F#/img/pipeline.png"]);
  const texts = [...(await entryFiles(kb.dir)).values()];
  assert(texts.find((text) => text.includes("imported_from: C#.md"))!.includes(token));
});

Deno.test("import: link text survives; relative markdown links and escaped pipes in tables resolve", async () => {
  await using kb = await makeKb({ empty: true });
  const folder = join(kb.root, "til");
  await writeFolder(folder, {
    "README.md": "# TIL\n\n- [Quick Man Pages](shell/quick-man-pages.md)\n" +
      "- [Squash](git/squash.md#interactive)\n",
    "shell/quick-man-pages.md":
      "# Quick Man Pages\n\nUse `tldr`. Back to [the list](../README.md).\n",
    "git/squash.md": "# Squash\n\n1. Open **[[Quick Man Pages]] → Files and Links**\n\n" +
      "| topic | note |\n| --- | --- |\n| man | [[quick-man-pages\\|man pages]] |\n",
  });
  const report = await importJson(kb.env, folder);
  assertEquals(report.added.length, 3);
  const texts = [...(await entryFiles(kb.dir)).values()];
  const of = (from: string) => texts.find((text) => text.includes(`imported_from: ${from}`))!;
  assertMatch(of("README.md"), /^- Quick Man Pages \(\[\[kb-\w{5}\]\]\)$/m);
  assertMatch(of("README.md"), /^- Squash \(\[\[kb-\w{5}\]\]\)$/m);
  assertMatch(of("shell/quick-man-pages.md"), /Back to the list \(\[\[kb-\w{5}\]\]\)\./);
  assertMatch(
    of("git/squash.md"),
    /^1\. Open \*\*Quick Man Pages \(\[\[kb-\w{5}\]\]\) → Files and Links\*\*$/m,
  );
  assertMatch(of("git/squash.md"), /^\| man \| man pages \(\[\[kb-\w{5}\]\]\) \|$/m);
  assertMatch(
    of("README.md"),
    /^links:\n {2}- \{ rel: related, to: kb-\w{5} \}\n {2}- \{ rel: related/m,
  );
});

Deno.test("import: a name with a backslash comes in; cut tags and titles are named in the report", async () => {
  await using kb = await makeKb({ empty: true });
  const folder = join(kb.root, "notes");
  const tags = Array.from({ length: 50 }, (_, n) => `t${n}`);
  const long = "word ".repeat(60).trim();
  await writeFolder(folder, {
    "a\\b.md": "# Back slash\n\nA note named with a backslash.\n",
    "Many tags.md": `---\ntags: [${tags.join(", ")}]\n---\nTagged.\n`,
    "Long.md": `# ${long}\n\nLong title.\n`,
    "Plain.md": "Plain.\n",
  });
  const result = await runCli(["import", folder, "--json"], { env: kb.env });
  assertEquals(result.code, 0, show(result));
  const report = parseJson<ImportJson & { warnings: { path: string; warning: string }[] }>(result);
  assertEquals(report.added.length, 4, JSON.stringify(report.leftOut));
  const texts = [...(await entryFiles(kb.dir)).values()];
  assert(texts.some((text) => text.includes("named with a backslash")));
  const said = report.warnings.map(({ path, warning }) => `${path}: ${warning}`);
  assert(
    said.some((line) => /^Many tags\.md: tags cut from 50 to 32; left out: t32, .*t49$/.test(line)),
    said.join("\n"),
  );
  assert(
    said.some((line) => /^Long\.md: title cut at 200 characters; left out: "/.test(line)),
    said.join("\n"),
  );
  const printed = await runCli(["import", folder, "--dry-run"], { env: kb.env });
  assertMatch(printed.stdout, /Many tags\.md: tags cut from 50 to 32/);
});

Deno.test("import: hundreds of notes are staged into one pack, and only they are committed", async () => {
  await using kb = await makeKb({ remote: true, empty: true });
  const folder = join(kb.root, "many");
  const files: Record<string, string> = {};
  for (let n = 0; n < 300; n++) {
    files[`Note ${n}.md`] = `# Note ${n}\n\nSee [[Note ${(n + 1) % 300}]].\n`;
  }
  await writeFolder(folder, files);
  // Something the user staged on their own is neither committed nor unstaged by the import.
  await Deno.writeTextFile(join(kb.dir, "draft.txt"), "mine\n");
  await git(kb.dir, "add", "draft.txt");
  const loose = async () =>
    Number(/^count: (\d+)$/m.exec(await git(kb.dir, "count-objects", "-v"))![1]);
  const before = await loose();
  const report = await importJson(kb.env, folder);
  assertEquals(report.added.length, 300);
  assert(await loose() - before < 20, "the notes' objects went into a pack, not a loose file each");
  const committed = (await git(kb.dir, "show", "--name-only", "--format=", "HEAD")).split("\n");
  assertEquals(committed.length, 300);
  assert(committed.every((path) => path.startsWith("entries/")), committed.join(", "));
  assertEquals(await git(kb.dir, "diff", "--cached", "--name-only"), "draft.txt");
  assertEquals(await git(kb.dir, "status", "--porcelain", "--", "entries"), "");
});

Deno.test("import: embedded files come along into attachments/; a missing, huge or linked one is named and its embed made text", async () => {
  await using kb = await makeKb({ remote: true, empty: true });
  const vault = join(kb.root, "vault");
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);
  await writeFolder(vault, {
    ".obsidian/app.json": "{}",
    "Notes/Flow.md": "# Flow\n\n![[key flow.png]]\n\n![the flow](../img/key%20flow.png)\n\n" +
      "![[gone.png]] ![[huge.pdf]] ![[linked.png]]\n\n`![[key flow.png]]` stays code.\n",
  });
  await Deno.mkdir(join(vault, "img"));
  await Deno.writeFile(join(vault, "img", "key flow.png"), png);
  await Deno.writeFile(join(vault, "huge.pdf"), new Uint8Array(10 * 1024 * 1024 + 1));
  await Deno.symlink("/etc/hostname", join(vault, "linked.png"));
  const report = await importJson(kb.env, vault);
  assertEquals(report.attachments.brought, ["img/key flow.png"]);
  assertEquals(
    report.attachments.missing.map(({ target, reason }) => `${target}: ${reason}`),
    [
      "gone.png: not found in the folder",
      "huge.pdf: larger than 10 MiB",
      "linked.png: a symbolic link (not followed)",
    ],
  );
  const [text] = [...(await entryFiles(kb.dir)).values()];
  const copy =
    /^!\[key flow\.png\]\(\.\.\/(attachments\/vault-[0-9a-f]{8}\/img\/key%20flow\.png)\)$/m
      .exec(text);
  assert(copy, text);
  assertMatch(
    text,
    /^!\[the flow\]\(\.\.\/attachments\/vault-[0-9a-f]{8}\/img\/key%20flow\.png\)$/m,
  );
  assertMatch(
    text,
    /^\[gone\.png: not imported, not found in the folder\] \[huge\.pdf: not imported/m,
  );
  assertMatch(text, /^`!\[\[key flow\.png\]\]` stays code\.$/m);
  const stored = join(kb.dir, decodeURIComponent(copy[1]));
  assertEquals(await Deno.readFile(stored), png);
  assertEquals(
    await git(kb.dir, "status", "--porcelain"),
    "",
    "the copy is committed with the entry",
  );
  const doctor = await runCli(["doctor", "--json"], { env: kb.env });
  assertEquals(doctor.code, 0, show(doctor));
  const again = await importJson(kb.env, vault);
  assertEquals([again.added.length, again.updated.length, again.unchanged.length], [0, 0, 1]);
  assertEquals(again.attachments.copied, [], "nothing copied when nothing changed");
  const said = await runCli(["import", vault], { env: kb.env });
  assertMatch(said.stdout, /^0 embedded files copied to attachments\/ \(1 already there/m);

  // Only the image changed: it is copied and committed although no note changed.
  const redrawn = new Uint8Array([...png, 1, 2, 3]);
  await Deno.writeFile(join(vault, "img", "key flow.png"), redrawn);
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const changed = await importJson(kb.env, vault);
  assertEquals(changed.attachments.copied, ["img/key flow.png"]);
  assertEquals(await Deno.readFile(stored), redrawn);
  assert(await git(kb.dir, "rev-parse", "HEAD") !== head, "a commit holds the new image");
  assertEquals(await git(kb.dir, "status", "--porcelain"), "");
});

Deno.test("import: an attachments/ that is a symbolic link is never written through", async () => {
  await using kb = await makeKb({ empty: true });
  const outside = join(kb.root, "outside");
  await Deno.mkdir(outside);
  await Deno.symlink(outside, join(kb.dir, "attachments"));
  const vault = join(kb.root, "vault");
  await writeFolder(vault, { "Note.md": "# Note\n\n![[x.png]]\n", "x.png": "png" });
  const result = await runCli(["import", vault], { env: kb.env });
  assertEquals(result.code, 1, show(result));
  assertMatch(result.stderr, /attachments is a symbolic link, which a save never writes through/);
  assertEquals([...Deno.readDirSync(outside)], [], "nothing written outside the knowledge base");
});

Deno.test("import: a folder moved to another path and imported again updates its entries, no duplicates", async () => {
  await using kb = await makeKb({ remote: true, empty: true });
  const before = join(kb.root, "Notes", "vault");
  await writeFolder(before, {
    "Deploy.md": "# Deploy\n\nSee [[Rotate keys]].\n",
    "Rotate keys.md": "# Rotate keys\n\nEvery quarter.\n",
  });
  assertEquals((await importJson(kb.env, before)).added.length, 2);
  const after = join(kb.root, "Documents", "vault");
  await Deno.mkdir(join(after, ".."));
  await Deno.rename(before, after);
  const again = await importJson(kb.env, after);
  assertEquals([again.added.length, again.updated.length], [0, 2], JSON.stringify(again));
  assertEquals((await entryFiles(kb.dir)).size, 2);
  const rerun = await importJson(kb.env, after);
  assertEquals([rerun.added.length, rerun.updated.length, rerun.unchanged.length], [0, 0, 2]);
});

Deno.test("import: a note whose file name holds a credential is left out, with a rename as the fix", async () => {
  await using kb = await makeKb({ empty: true });
  const folder = join(kb.root, "notes");
  await writeFolder(folder, { "ops/AKIAZ7Q3K9W2M5X8R4TB keys.md": "# Keys\n\nRotate them.\n" });
  const report = await importJson(kb.env, folder);
  const [left] = report.leftOut;
  assertStrictEquals(left?.path, "ops/AKIAZ7Q3K9W2M5X8R4TB keys.md", JSON.stringify(report));
  assertMatch(
    left.reason,
    /holds an AWS access key \(AKIA…R4TB\) in its file name; rename the file/,
  );
});

Deno.test("import: an MDX docs folder comes in whole, its ESM and JSX as written; links between pages resolve", async () => {
  await using kb = await makeKb({ remote: true, empty: true });
  const docs = join(kb.root, "docs");
  const page = "import {Note} from '../_component/note.jsx'\n\n" +
    "export const info = {modified: new Date('2025-01-27')}\n\n# What is MDX?\n\n" +
    "Markdown with JSX. {/* more */} See [getting started](./getting-started.mdx).\n\n" +
    '<Note type="info">\n  A note.\n</Note>\n';
  await writeFolder(docs, {
    "what-is-mdx.mdx": page,
    "getting-started.mdx": "---\ntitle: Getting started\nsidebar_position: 2\n---\nInstall it.\n",
    "note.jsx": "export const Note = () => null\n",
  });
  const report = await importJson(kb.env, docs);
  assertEquals(report.added.length, 2, JSON.stringify(report));
  assertEquals(report.leftOut.map((file) => file.path), ["note.jsx"]);
  const texts = [...(await entryFiles(kb.dir)).values()];
  const what = texts.find((text) => text.includes("title: What is MDX?"));
  assert(what, texts.join("\n---\n"));
  assertMatch(what, /^import \{Note\} from '\.\.\/_component\/note\.jsx'$/m);
  assertMatch(what, /^<Note type="info">\n {2}A note\.\n<\/Note>$/m);
  assertMatch(what, /See getting started \(\[\[kb-[0-9a-z]{5}\]\]\)\./);
  const started = texts.find((text) => text.includes("title: Getting started"));
  assertMatch(started ?? "", /^sidebar_position: 2$/m);
});
