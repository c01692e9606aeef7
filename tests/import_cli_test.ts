/**
 * `git-kb import` through the real CLI on real git with a bare remote: an Obsidian vault comes in
 * as one commit with its tags, dates and wikilinks; a note holding a credential comes in masked,
 * and the report names where; a second import changes nothing, and a changed note is updated in place.
 */
import { assert, assertEquals, assertMatch, assertStrictEquals } from "@std/assert";
import { join } from "@std/path/posix/join";
import { shellQuote } from "../core/shell/quote.ts";
import { attachmentProblems } from "../io/save/attachments.ts";
import { attachmentSecretProblems } from "../io/save/secrets.ts";
import { runProcess } from "../io/process.ts";
import { kbCommand } from "../io/self_command.ts";
import {
  childEnv,
  copyDir,
  exists,
  git,
  gitRun,
  MAIN,
  makeKb,
  parseJson,
  ROOT,
  runCli,
  runCliSwappingAtLook,
  show,
  writeFolder,
} from "./helpers.ts";

interface ImportJson {
  kind: string;
  added: string[];
  updated: string[];
  unchanged: string[];
  changes: string[];
  linksResolved: number;
  unresolved: { sourcePath: string; name: string; markdown?: true; leftOut?: string }[];
  leftOut: { path: string; reason: string }[];
  masked: { path: string; line: number; kind: string }[];
  attachments: { copied: string[] };
  save?: { commit: string; push: string };
}

async function writeVault(root: string): Promise<string> {
  const vault = join(root, "My Vault");
  await Deno.mkdir(join(vault, ".obsidian"), { recursive: true });
  await Deno.mkdir(join(vault, "Ops"), { recursive: true });
  await Deno.writeTextFile(join(vault, ".obsidian", "app.json"), "{}");
  await Deno.writeTextFile(
    join(vault, "Ops", "Rotate keys.md"),
    "---\ntags: aws, security\ncreated: 2022-01-02\n---\n# Rotate keys\n\n" +
      "Rotate them #quarterly. See [[Deploy|the deploy notes]] and [[Nowhere]].\n",
  );
  await Deno.writeTextFile(
    join(vault, "Deploy.md"),
    "Ship with `make deploy`; the token is in [[Secrets]].\n",
  );
  const token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
  await Deno.writeTextFile(join(vault, "Secrets.md"), `The CI token is ${token}\n`);
  await Deno.writeTextFile(join(vault, "diagram.png"), "png");
  return vault;
}

Deno.test("import: a vault in one commit, secrets masked, a second import updates in place", async () => {
  await using kb = await makeKb({ remote: true, empty: true });
  const vault = await writeVault(kb.root);
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const dry = await runCli(["import", vault, "--dry-run"], { env: kb.env });
  assertEquals(dry.code, 0, show(dry));
  assertMatch(dry.stdout, /Would import from .* \(obsidian\): 3 added, 0 updated, 0 unchanged/);
  assertMatch(dry.stdout, /^ {2}new Rotate keys$/m);
  assert(!/kb-\w{5}/.test(dry.stdout), `a dry run shows no id it has not drawn:\n${dry.stdout}`);
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head, "a dry run writes nothing");

  const first = await runCli(["import", vault, "--json"], { env: kb.env });
  assertEquals(first.code, 0, show(first));
  const report = parseJson<ImportJson>(first);
  assertEquals(report.kind, "obsidian");
  assertEquals(report.added.length, 3);
  assertEquals(report.linksResolved, 2);
  assertEquals(
    report.unresolved.map(({ sourcePath, name }) => `${sourcePath} → ${name}`).sort(),
    ["Ops/Rotate keys.md → Nowhere"],
  );
  assertEquals(report.masked.map(({ path, line, kind }) => `${path}:${line} ${kind}`), [
    "Secrets.md:1 github-token",
  ]);
  assert(!first.stdout.includes("a1B2c3D4e5F6"), "the credential is never printed whole");
  assert(report.leftOut.some((file) => file.path === "diagram.png"));
  assertStrictEquals(report.save?.push, "pushed");
  assertEquals(await git(kb.dir, "rev-parse", "HEAD~1"), head, "one commit for the whole import");
  assertEquals(await git(kb.remote!, "rev-parse", "main"), report.save?.commit);

  const found = await runCli(["search", "rotate quarterly", "--json"], { env: kb.env });
  assertEquals(found.code, 0, show(found));
  const rotatePath = report.changes.find((path) => path.includes("rotate-keys"))!;
  const rotate = await Deno.readTextFile(join(kb.dir, rotatePath));
  assertMatch(rotate, /^tags: \[aws, security, quarterly, ops\]$/m);
  assertMatch(rotate, /^created: 2022-01-02$/m);
  assertMatch(rotate, /^imported_from: Ops\/Rotate keys\.md$/m);
  assertMatch(rotate, /See the deploy notes \(\[\[kb-\w{5}\]\]\) and \[\[Nowhere\]\]\./);
  assertMatch(rotate, /- \{ rel: related, to: kb-\w{5} \}/);

  const again = await runCli(["import", vault, "--json"], { env: kb.env });
  assertEquals(again.code, 0, show(again));
  const second = parseJson<ImportJson>(again);
  assertEquals([second.added.length, second.updated.length, second.unchanged.length], [0, 0, 3]);
  assertEquals(second.save, undefined);

  await Deno.writeTextFile(join(vault, "Deploy.md"), "Ship with `make release` now.\n");
  const changed = parseJson<ImportJson>(
    await runCli(["import", vault, "--json"], { env: kb.env }),
  );
  assertEquals(changed.updated.length, 1);
  assertEquals(changed.added.length, 0);
  const entries = [...Deno.readDirSync(join(kb.dir, "entries"))].filter((file) =>
    file.name.endsWith(".md")
  );
  assertEquals(entries.length, 3, "no duplicate entries");
});

Deno.test("import: usage errors exit 2 and a missing folder exits 1 with its name", async () => {
  await using kb = await makeKb({ empty: true });
  assertEquals((await runCli(["import"], { env: kb.env })).code, 2);
  assertEquals((await runCli(["import", kb.root, "--from", "notion"], { env: kb.env })).code, 2);
  const missing = await runCli(["import", join(kb.root, "nope")], { env: kb.env });
  assertEquals(missing.code, 1, show(missing));
  const nope = join(kb.root, "nope");
  assertEquals(
    missing.stderr.trim(),
    `git-kb import: ${nope} does not exist; give the folder of notes to import`,
  );
  assertEquals(/os error/.test(missing.stderr), false, "not the system's words");
  // A note given in place of its folder: the import of the folder, to look at first, works pasted.
  const folder = join(kb.root, "it's notes");
  await writeFolder(folder, { "CLAUDE.md": "# Rules\n\n## Testing\nRun the tests.\n" });
  const file = await runCli(["import", join(folder, "CLAUDE.md")], { env: kb.env });
  assertEquals(file.code, 1, show(file));
  const line = file.stderr.match(/: (git-kb import .* --dry-run)$/m)?.[1];
  assertEquals(line, `git-kb import ${shellQuote(folder)} --dry-run`, show(file));
  const dry = await runCli(["import", folder, "--dry-run", "--json"], { env: kb.env });
  assertEquals(parseJson<ImportJson>(dry).added.length, 1, show(dry));
});

Deno.test("import: an attachment named with backslashes is not brought, so nothing is written outside the knowledge base", async () => {
  await using kb = await makeKb({ remote: true });
  const vault = join(kb.root, "vault");
  await Deno.mkdir(join(vault, ".obsidian"), { recursive: true });
  // Read with `\` as a separator, this name is `../victim.png` next to the knowledge base.
  const name = "x\\..\\..\\..\\..\\victim.png";
  const victim = join(kb.root, "victim.png");
  await Deno.writeTextFile(victim, "the user's own file");
  await Deno.writeTextFile(join(vault, name), "from the shared vault");
  await Deno.writeTextFile(join(vault, "Note.md"), `# Shared note\n\nSee ![[${name}]] here.\n`);
  const imported = await runCli(["import", vault, "--json"], { env: kb.env });
  assertEquals(imported.code, 0, show(imported));
  const report = parseJson<{
    added: string[];
    attachments: { brought: string[]; missing: { target: string; reason: string }[] };
  }>(imported);
  assertEquals(report.added.length, 1);
  assertEquals(report.attachments.brought, []);
  assertMatch(report.attachments.missing[0]?.reason ?? "", /backslash/);
  assertEquals(await Deno.readTextFile(victim), "the user's own file");
  assertEquals(await git(kb.dir, "status", "--porcelain"), "");
});

Deno.test("import: a file a note embeds or links that holds a credential is not brought, unless --allow-secret keeps it", async () => {
  await using kb = await makeKb({ remote: true });
  const vault = join(kb.root, "vault");
  const token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
  await writeFolder(vault, {
    "deploy.env": `DEPLOY_HOST=ci.example.test\nGITHUB_TOKEN=${token}\n`,
    "diagram.png": "png",
    "Deploy.md":
      "# Deploy\n\nSettings: ![[deploy.env]], see [the env](deploy.env); ![[diagram.png]]\n",
  });
  const imported = await runCli(["import", vault, "--json"], { env: kb.env });
  assertEquals(imported.code, 0, show(imported));
  const report = parseJson<{
    added: string[];
    attachments: { brought: string[]; missing: { target: string; reason: string }[] };
  }>(imported);
  assertEquals(report.added.length, 1);
  assertEquals(report.attachments.brought, ["diagram.png"]);
  assertMatch(
    report.attachments.missing[0]?.reason ?? "(none)",
    /^it holds a GitHub token \(ghp_…\w+\) on line 2; remove it from the file and import again \(or keep it in this private knowledge base with --allow-secret\)$/,
  );
  const pushed = await git(kb.remote!, "log", "-p", "--all");
  assert(!pushed.includes(token), "the token was pushed");
  assert(pushed.includes("deploy.env"), "the embed names the file left out");

  const kept = await runCli(["import", vault, "--allow-secret"], { env: kb.env });
  assertEquals(kept.code, 0, show(kept));
  assertMatch(
    kept.stderr,
    /kept a GitHub token \(ghp_…\w+\) on line 2 of attachments\/vault-[0-9a-f]+\/deploy\.env \(--allow-secret, a private knowledge base\)/,
  );
});

Deno.test("import into a shared knowledge base: a file holding a credential is not brought, and nothing offers to keep it", async () => {
  await using kb = await makeKb({ remote: true });
  await Deno.writeTextFile(join(kb.dir, "git-kb.json"), '{ "shared": true }\n');
  await git(kb.dir, "add", "git-kb.json");
  await git(kb.dir, "commit", "--quiet", "-m", "shared");
  const vault = join(kb.root, "vault");
  await writeFolder(vault, {
    "deploy.env": "GITHUB_TOKEN=ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8\n",
    "Deploy.md": "# Deploy\n\nSettings: ![[deploy.env]]\n",
  });
  const imported = await runCli(["import", vault], { env: kb.env });
  assertEquals(imported.code, 0, show(imported));
  assertMatch(
    imported.stdout,
    /deploy\.env \(it holds a GitHub token \(ghp_…\w+\) on line 1; remove it from the file and import again \(this knowledge base is shared, so it keeps none\)\)/,
  );
});

Deno.test("a save never writes an attachment that holds a credential unless --allow-secret keeps it in a private knowledge base", async () => {
  await using kb = await makeKb();
  const path = "attachments/key/deploy_key.txt";
  const bytes = new TextEncoder().encode("token: ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8\n");
  const [problem] = await attachmentSecretProblems(kb.dir, [{ path, bytes }], false);
  assertMatch(
    problem?.message ?? "(none)",
    /^holds a GitHub token \(ghp_…\w+\) on line 1 of attachments\/key\/deploy_key\.txt; /,
  );
  assertEquals(await attachmentSecretProblems(kb.dir, [{ path, bytes }], true), []);
  const image = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, ...bytes]);
  assertEquals(await attachmentSecretProblems(kb.dir, [{ path, bytes: image }], false), []);
});

Deno.test("import: a link to a file of the folder not brought names that file and why, not a note", async () => {
  await using kb = await makeKb();
  const vault = join(kb.root, "vault");
  await Deno.mkdir(join(vault, ".obsidian"), { recursive: true });
  await Deno.writeTextFile(join(kb.root, "outside.pdf"), "not the vault's");
  // A link is never followed: the files are in the folder, but not brought.
  await Deno.symlink(join(kb.root, "outside.pdf"), join(vault, "spec.pdf"));
  await Deno.symlink(join(kb.root, "outside.pdf"), join(vault, "shot.png"));
  await Deno.writeTextFile(
    join(vault, "Note.md"),
    "# Release\n\nSee [[shot.png]], [the spec](spec.pdf) and [[Nowhere]].\n",
  );
  const human = await runCli(["import", vault, "--dry-run"], { env: kb.env });
  assertEquals(human.code, 0, show(human));
  assertMatch(human.stdout, /1 link names no note:\n {2}Note\.md: \[\[Nowhere\]\]\n/);
  assertMatch(
    human.stdout,
    /2 links to files not brought, kept as written:\n {2}Note\.md: shot\.png \(a symbolic link \(not followed\)\)\n {2}Note\.md: spec\.pdf \(/,
  );
  const report = parseJson<{
    unresolved: { name: string }[];
    attachments: { missing: { target: string; linked?: boolean }[] };
  }>(await runCli(["import", vault, "--json"], { env: kb.env }));
  assertEquals(report.unresolved.map((link) => link.name), ["Nowhere"]);
  assertEquals(report.attachments.missing.map((file) => [file.target, file.linked]), [
    ["shot.png", true],
    ["spec.pdf", true],
  ]);
});

Deno.test("import: a file left out that is no note is not listed among the notes left out", async () => {
  await using kb = await makeKb();
  const notes = join(kb.root, "notes");
  await writeFolder(notes, { "Note.md": "# Release\n\nShip it.\n", "img/shot.png": "png" });
  await Deno.symlink(join(notes, "Note.md"), join(notes, "Copy.md"));
  await Deno.symlink(join(notes, "img/shot.png"), join(notes, "shot.png"));
  await Deno.symlink(join(notes, "img"), join(notes, "pictures"));
  const listed = await runCli(["import", notes, "--dry-run"], { env: kb.env });
  assertEquals(listed.code, 0, show(listed));
  assertMatch(
    listed.stdout,
    /^1 note left out:\n {2}Copy\.md: a symbolic link \(not followed\)\n/m,
  );
  assertMatch(
    listed.stdout,
    /^2 other files left out:\n {2}pictures: a symbolic link \(not followed\)\n {2}shot\.png: a symbolic link/m,
  );
});

Deno.test("a save never writes an attachment whose path holds a backslash", async () => {
  await using kb = await makeKb();
  const path = "attachments/key/x\\..\\..\\..\\victim.png";
  const [problem] = attachmentProblems(kb.dir, [{ path, bytes: new Uint8Array(1) }]);
  assertMatch(problem?.message ?? "(none)", /backslash/);
});

Deno.test("import of notes with no wikilink says nothing about wikilinks", async () => {
  await using kb = await makeKb({ empty: true });
  const notes = join(kb.root, "notes");
  await Deno.mkdir(notes);
  await Deno.writeTextFile(join(notes, "vpn.md"), "The office printer needs split tunnelling.\n");
  const imported = await runCli(["import", notes], { env: kb.env });
  assertEquals(imported.code, 0, show(imported));
  assertMatch(imported.stdout, /^Imported from .*: 1 added, 0 updated, 0 unchanged/);
  assertEquals(/wikilink/.test(imported.stdout), false, imported.stdout);
});

/** The fixture folders, one per source kind: tests/fixtures/import/<kind>/. */
const FIXTURES = join(ROOT, "tests", "fixtures", "import");

/** What a fixture's import must bring in. */
interface FixtureCase {
  kind: string;
  added: number;
  linksResolved: number;
  unresolved: string[];
  /** Source files left out, each with a word of its reason. */
  leftOut: [string, RegExp][];
  /** Checks on the entries written, by their imported_from field. */
  entries: Record<string, RegExp[]>;
  /** Index files read for summaries. */
  indexes?: string[];
  /** Entries made kernel rules. */
  kernel?: number;
}

const CASES: Record<string, FixtureCase> = {
  obsidian: {
    kind: "obsidian",
    added: 5,
    linksResolved: 4,
    unresolved: ["Incident checklist"],
    leftOut: [],
    entries: {
      "Ops/Cloud/Rotate keys.md": [
        /^tags: \[aws, security, quarterly, ops, cloud\]$/m,
        /^aliases: \[key rotation, rotating credentials\]$/m,
        /^created: 2022-01-02$/m,
        /^updated: 2023-03-04$/m,
        /^Rotate the IAM keys #quarterly\. Ship the new ones with Deploy \(\[\[kb-\w{5}\]\]\), or read$/m,
        /^the deploy notes \(\[\[kb-\w{5}\]\]\) first; the Deploy > Rollback \(\[\[kb-\w{5}\]\]\) section/m,
        /^!\[key-flow\.png\]\(\.\.\/attachments\/source-obsidian-[0-9a-f]{8}\/attachments\/key-flow\.png\)$/m,
      ],
      "Deploy.md": [/^title: Deploy$/m, /^type: note$/m, /^status: superseded$/m],
      "Deploy v2.md": [
        /^status: active$/m,
        /- \{ rel: supersedes, to: kb-\w{5} \}/,
        /- \{ rel: related, to: kb-\w{5} \}/,
        /See also \[\[Incident checklist\]\]\./,
      ],
      "Ops/Old runbook.md": [/^status: archived$/m, /^title: Old runbook$/m],
      "Reading/Deno manual.md": [
        /^type: bookmark$/m,
        /^source: https:\/\/docs\.deno\.com\/runtime\/$/m,
      ],
    },
  },
  til: {
    kind: "markdown",
    added: 5,
    linksResolved: 6,
    unresolved: [],
    leftOut: [],
    entries: {
      "README.md": [
        /^- Quick Man Pages \(\[\[kb-\w{5}\]\]\) — tldr instead of man$/m,
        /^- Squash commits \(\[\[kb-\w{5}\]\]\) — one commit per change$/m,
        /^- Accent colours \(\[\[kb-\w{5}\]\]\)$/m,
      ],
      "shell/quick-man-pages.md": [/Back to the list \(\[\[kb-\w{5}\]\]\)\.$/m],
      "git/squash-commits.md": [
        /^\| pages \| man pages \(\[\[kb-\w{5}\]\]\) \|$/m,
        /using RSA key 4AEE18F83AFDEB23$/m,
      ],
      "css/accent colours.md": [
        /^tags: \[css, theming\]$/m,
        /^Pick accent colours that pass contrast checks\n\nThe accent is #ff0000/m,
        /^!\[the palette\]\(\.\.\/attachments\/source-til-[0-9a-f]{8}\/img\/palette\.png\)$/m,
      ],
      "db/local-postgres.md": [
        /postgres:\/\/postgres:postgres@localhost:5432\/app/,
        /^The vault password is separate; the default password is left blank\.$/m,
      ],
    },
  },
  "cursor-rules": {
    kind: "markdown",
    added: 4,
    linksResolved: 0,
    unresolved: [],
    leftOut: [],
    kernel: 1,
    entries: {
      ".cursor/rules/no-any.mdc": [
        /^title: No any in TypeScript$/m,
        /^type: rule$/m,
        /^kernel: true$/m,
        /^tags: \[cursor-rule, src\/\*\*\/\*\.ts, test\/\*\*\/\*\.ts\]$/m,
      ],
      ".cursor/rules/sql-migrations.mdc": [/^type: rule$/m, /db\/migrations/],
      ".cursor/rules/commit-style.mdc": [/^title: commit style$/m, /^type: rule$/m],
      "README.md": [/^title: Project$/m, /^type: note$/m],
    },
  },
  "claude-md": {
    kind: "markdown",
    added: 5,
    linksResolved: 0,
    unresolved: [],
    leftOut: [
      ["CLAUDE.md @~/.claude/my-preferences.md", /outside this folder/],
      ["AGENTS.md#releases", /is an empty section/],
    ],
    entries: {
      "CLAUDE.md#commits": [/^title: Commits$/m, /^type: rule$/m],
      "CLAUDE.md#layout": [/^title: Layout$/m, /`@someone`/],
      "docs/testing.md#testing": [/^title: Testing$/m, /^type: rule$/m],
      "docs/testing.md#fixtures": [/^title: Fixtures$/m, /^type: rule$/m],
      "AGENTS.md#reviews": [/^title: Reviews$/m, /^type: rule$/m],
    },
  },
  knowledge: {
    kind: "knowledge",
    added: 5,
    linksResolved: 1,
    unresolved: [],
    leftOut: [],
    indexes: ["index.md"],
    entries: {
      "retry-policy.md": [
        /^title: Retry policy$/m,
        /^tags: \[reliability, http\]$/m,
        /^created: 2024-03-05$/m,
        /^retry idempotent calls only, three times at most\n\nRetry only idempotent calls/m,
        /with backoff \(\[\[kb-\w{5}\]\]\) between tries/,
      ],
      "backoff.md": [/^title: Backoff$/m, /^created: 2024-02-01$/m, /^exponential, with jitter$/m],
      "old-retries.md": [/^status: superseded$/m, /^updated: 2021-06-07$/m],
      "circuit-breaker.md": [/^title: Circuit breaker$/m, /^status: active$/m, /^open after five/m],
      "ops/queues.md": [/^title: Queues$/m, /^tags: \[ops\]$/m, /^one queue per tenant$/m],
    },
  },
  "claude-memory": {
    kind: "claude-memory",
    added: 3,
    linksResolved: 0,
    unresolved: [],
    leftOut: [],
    indexes: ["MEMORY.md"],
    entries: {
      "MEMORY.md#preferences": [/^title: Preferences$/m, /^- Use pnpm, never npm/m],
      "debugging.md": [
        /^title: Debugging flaky tests$/m,
        /^type: rule$/m,
        /^tags: \[claude-memory\]$/m,
        /^aliases: \[Debugging\]$/m,
      ],
      "api-conventions.md": [/^title: API conventions$/m, /^naming and error shapes$/m],
    },
  },
};

/** A hash of every file under `dir` (paths and bytes), to tell that nothing in it changed. */
async function treeHash(dir: string): Promise<string> {
  const parts: string[] = [];
  async function walk(folder: string, prefix: string) {
    const items = [];
    for await (const item of Deno.readDir(folder)) items.push(item);
    for (const item of items.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(folder, item.name);
      const relative = `${prefix}/${item.name}`;
      if (item.isDirectory) await walk(path, relative);
      else {
        const bytes = await Deno.readFile(path);
        const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
        parts.push(`${relative} ${Array.from(digest, (b) => b.toString(16)).join("")}`);
      }
    }
  }
  await walk(dir, "");
  return parts.join("\n");
}

/** The text of each entry file, by its imported_from field. */
async function entriesBySource(kbDir: string): Promise<Map<string, string>> {
  const bySource = new Map<string, string>();
  for await (const item of Deno.readDir(join(kbDir, "entries"))) {
    if (!item.name.endsWith(".md")) continue;
    const text = await Deno.readTextFile(join(kbDir, "entries", item.name));
    const from = /^imported_from: (.+)$/m.exec(text)?.[1];
    if (from) bySource.set(from.replace(/^"|"$/g, ""), text);
  }
  return bySource;
}

for (const [fixture, expected] of Object.entries(CASES)) {
  Deno.test(`import fixture ${fixture}: counts, links, one commit, a bad file left out, an idempotent rerun`, async () => {
    await using kb = await makeKb({ remote: true, empty: true });
    const folder = join(kb.root, fixture === "knowledge" ? "knowledge" : `source-${fixture}`);
    await copyDir(join(FIXTURES, fixture), folder);
    // A file that is not UTF-8: reported, and the rest imported all the same.
    await Deno.writeFile(join(folder, "broken.md"), new Uint8Array([0x23, 0x20, 0xff, 0xfe, 0x0a]));
    const source = await treeHash(folder);
    const head = await git(kb.dir, "rev-parse", "HEAD");

    const dry = parseJson<ImportJson>(
      await runCli(["import", folder, "--dry-run", "--json"], { env: kb.env }),
    );
    assertEquals(dry.added.length, expected.added);
    assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head, "a dry run commits nothing");
    assertEquals((await entriesBySource(kb.dir)).size, 0, "a dry run writes no entry");

    const result = await runCli(["import", folder, "--json"], { env: kb.env });
    assertEquals(result.code, 0, show(result));
    const report = parseJson<ImportJson & { kernel: string[]; indexes: string[] }>(result);
    assertEquals(report.kind, expected.kind);
    assertEquals(report.added.length, expected.added, JSON.stringify(report.added));
    assertEquals(report.linksResolved, expected.linksResolved);
    assertEquals(report.unresolved.map((link) => link.name), expected.unresolved);
    assertEquals(report.indexes, expected.indexes ?? []);
    assertEquals(report.kernel.length, expected.kernel ?? 0);
    const broken = report.leftOut.find((file) => file.path === "broken.md");
    assert(broken && /UTF-8/.test(broken.reason), JSON.stringify(report.leftOut));
    for (const [path, reason] of expected.leftOut) {
      const found = report.leftOut.find((file) => file.path === path);
      assert(
        found && reason.test(found.reason),
        `${path} left out: ${JSON.stringify(report.leftOut)}`,
      );
    }
    assertEquals(
      report.leftOut.length,
      expected.leftOut.length + 1,
      JSON.stringify(report.leftOut),
    );
    assertEquals(await git(kb.dir, "rev-parse", "HEAD~1"), head, "one commit for the whole import");
    assertEquals(await git(kb.remote!, "rev-parse", "main"), report.save?.commit, "pushed");
    const subject = await git(kb.dir, "log", "-1", "--format=%s");
    const copied = report.attachments.copied.length;
    const files = copied ? `, ${copied} ${copied === 1 ? "attachment" : "attachments"}` : "";
    assertMatch(subject, new RegExp(`\\(${expected.added} added, 0 updated${files}\\)$`));

    const written = await entriesBySource(kb.dir);
    assertEquals([...written.keys()].sort(), Object.keys(expected.entries).sort());
    for (const [from, patterns] of Object.entries(expected.entries)) {
      for (const pattern of patterns) assertMatch(written.get(from)!, pattern, from);
    }
    const doctor = await runCli(["doctor", "--json"], { env: kb.env });
    assertEquals(doctor.code, 0, show(doctor));

    const again = await runCli(["import", folder, "--json"], { env: kb.env });
    assertEquals(again.code, 0, show(again));
    const second = parseJson<ImportJson>(again);
    assertEquals([second.added.length, second.updated.length], [0, 0]);
    assertEquals(second.unchanged.length, expected.added);
    assertEquals(second.save, undefined);
    assertEquals(await git(kb.dir, "rev-parse", "HEAD~1"), head, "a second import commits nothing");
    assertEquals(await treeHash(folder), source, "the source folder is byte-identical");
  });
}

Deno.test("import: a note's dates come from its frontmatter, else the source's git history, else its mtime", async () => {
  await using kb = await makeKb({ empty: true });
  const folder = join(kb.root, "notes");
  await copyDir(join(FIXTURES, "obsidian"), folder);
  await git(folder, "init", "--quiet", "-b", "main");
  const commit = async (date: string, message: string) => {
    await git(folder, "add", "-A");
    const done = await gitRun(folder, ["commit", "--quiet", "-m", message], {
      GIT_AUTHOR_DATE: `${date}T12:00:00Z`,
      GIT_COMMITTER_DATE: `${date}T12:00:00Z`,
    });
    assertEquals(done.code, 0, show(done));
  };
  await commit("2020-01-02", "first");
  await Deno.writeTextFile(join(folder, "Deploy.md"), "\nAlso tag the release.\n", {
    append: true,
  });
  await commit("2021-03-04", "second");
  // A file git does not track falls back to its modification time.
  const untracked = join(folder, "Untracked.md");
  await Deno.writeTextFile(untracked, "Not committed yet.\n");
  const mtime = new Date("2019-05-06T12:00:00Z");
  await Deno.utime(untracked, mtime, mtime);
  const result = await runCli(["import", folder, "--json"], { env: kb.env });
  assertEquals(result.code, 0, show(result));
  const deploy = (await entriesBySource(kb.dir)).get("Deploy.md")!;
  assertMatch(deploy, /^created: 2020-01-02$/m);
  assertMatch(deploy, /^updated: 2021-03-04$/m);
  const rotate = (await entriesBySource(kb.dir)).get("Ops/Cloud/Rotate keys.md")!;
  assertMatch(rotate, /^created: 2022-01-02$/m, "the frontmatter's dates come first");
  const fresh = (await entriesBySource(kb.dir)).get("Untracked.md")!;
  assertMatch(fresh, /^created: 2019-05-06$/m);
  assertMatch(fresh, /^updated: 2019-05-06$/m);
});

Deno.test("import --dry-run says the embedded files would be copied, and copies none", async () => {
  await using kb = await makeKb({ empty: true });
  const folder = join(kb.root, "source-obsidian");
  await copyDir(join(FIXTURES, "obsidian"), folder);
  const dry = await runCli(["import", folder, "--dry-run"], { env: kb.env });
  assertEquals(dry.code, 0, show(dry));
  // Committed, they stay in the knowledge base's history: their size is said first.
  assertMatch(dry.stdout, /^\d+ embedded files? would be copied to attachments\/ \(\d+ bytes\)$/m);
  const report = parseJson<{ attachments: { copied: string[]; copiedBytes: number } }>(
    await runCli(["import", folder, "--dry-run", "--json"], { env: kb.env }),
  );
  const sizes = await Promise.all(
    report.attachments.copied.map(async (path) => (await Deno.stat(join(folder, path))).size),
  );
  assertEquals(report.attachments.copiedBytes, sizes.reduce((sum, size) => sum + size, 0));
  assert(!(await exists(join(kb.dir, "attachments"))), "a dry run copies nothing");
});

Deno.test("import: a folder with Dendron's root.schema.yml is a Dendron vault; its links name the note after their text", async () => {
  await using kb = await makeKb({ empty: true });
  const vault = join(kb.root, "vault");
  await Deno.mkdir(vault);
  await Deno.writeTextFile(join(vault, "root.schema.yml"), "version: 1\nschemas: []\n");
  await Deno.writeTextFile(join(vault, "tutorial.md"), "---\ntitle: Tutorial\n---\nStart here.\n");
  await Deno.writeTextFile(
    join(vault, "tutorial.linking.md"),
    "---\ntitle: Linking\n---\nBack to [[Tutorial Home Page|tutorial]]; see [[the engine|dev.engine]].\n",
  );
  const dry = await runCli(["import", vault, "--dry-run", "--json"], { env: kb.env });
  assertEquals(dry.code, 0, show(dry));
  const report = parseJson<ImportJson>(dry);
  assertEquals(report.kind, "dendron");
  assertEquals(report.linksResolved, 1);
  assertEquals(report.unresolved, [{ sourcePath: "tutorial.linking.md", name: "dev.engine" }]);
  // Told as plain markdown, the same links are Obsidian's: the note before the `|`.
  const plain = parseJson<ImportJson>(
    await runCli(["import", vault, "--from", "markdown", "--dry-run", "--json"], { env: kb.env }),
  );
  assertEquals(plain.linksResolved, 0);
});

Deno.test("import: a note too large for an entry is left out with its size, the limit and what to do", async () => {
  await using kb = await makeKb({ empty: true });
  const notes = join(kb.root, "notes");
  await Deno.mkdir(notes);
  await Deno.writeTextFile(join(notes, "small.md"), "Kept: AKIAZ7Q3KX5RPLM2WVND.\n");
  await Deno.writeTextFile(join(notes, "huge.md"), "word ".repeat(30_000) + "\n");
  // Over the limit as written, under twice the limit (read, then refused as an entry): its own
  // size is the cause, not a description or links the import added. Its credential is masked
  // as it is read, but the note is not brought, so no credential of it is reported as masked.
  await Deno.writeTextFile(
    join(notes, "large.md"),
    "# Large\nkey AKIAQ4TW7NX2HKRB6YZE\n" + "text ".repeat(14_000) + "\n",
  );
  // Under the limit as written, over it once its description is put first.
  const description = "A description of what the note is about. ".repeat(6);
  await Deno.writeTextFile(
    join(notes, "grown.md"),
    `---\ndescription: ${description}\n---\n${"text ".repeat(13_090)}\n`,
  );
  const imported = await runCli(["import", notes, "--json"], { env: kb.env });
  assertEquals(imported.code, 0, show(imported));
  const report = parseJson<ImportJson>(imported);
  assertEquals(report.added.length, 1);
  assertEquals(report.leftOut, [{
    path: "huge.md",
    reason: "is 150001 bytes; the limit is 65536. Split it into linked notes, then import again",
  }, {
    path: "grown.md",
    reason: "is 65698 bytes as an entry (its description put first, its links written as entry " +
      "ids); the limit is 65536. Split it into linked notes, then import again",
  }, {
    path: "large.md",
    reason: "is 70034 bytes; the limit is 65536. Split it into linked notes, then import again",
  }]);
  assertEquals(report.masked.map(({ path, line }) => `${path}:${line}`), ["small.md:1"]);
});

Deno.test("import: a Latin-1 or UTF-16 note is left out with its encoding and the line that converts it, which works pasted", async () => {
  await using kb = await makeKb({ empty: true });
  const notes = join(kb.root, "it's notes");
  await Deno.mkdir(notes);
  const text = "# Café notes\nA naïve résumé.\n";
  const latin1 = Uint8Array.from(text, (char) => char.charCodeAt(0));
  const utf16le = Uint8Array.from(
    Array.from(text).flatMap((char) => [char.charCodeAt(0) & 0xff, char.charCodeAt(0) >> 8]),
  );
  // Latin-1, and UTF-16 with and without a byte-order mark, as editors on Windows save them.
  await Deno.writeFile(join(notes, "latin.md"), latin1);
  await Deno.writeFile(join(notes, "bom.md"), new Uint8Array([0xff, 0xfe, ...utf16le]));
  await Deno.writeFile(join(notes, "le.md"), utf16le);
  const first = parseJson<ImportJson>(await runCli(["import", notes, "--json"], { env: kb.env }));
  assertEquals(first.added.length, 0, JSON.stringify(first));
  const reasons = new Map(first.leftOut.map((file) => [file.path, file.reason]));
  assertMatch(
    reasons.get("latin.md") ?? "",
    /^is not valid UTF-8 \(byte 0xE9 at offset 5, line 1\)/,
  );
  assertMatch(reasons.get("bom.md") ?? "", /^is UTF-16 text, not UTF-8/);
  assertMatch(reasons.get("le.md") ?? "", /^is UTF-16LE text, not UTF-8/);
  for (const [path, reason] of reasons) {
    const line = reason.slice(reason.indexOf("iconv "));
    const pasted = await runProcess("/bin/sh", ["-c", line]);
    assertEquals(pasted.code, 0, `${path}: ${line}\n${show(pasted)}`);
  }
  const second = parseJson<ImportJson>(await runCli(["import", notes, "--json"], { env: kb.env }));
  assertEquals(second.leftOut, []);
  assertEquals(second.added.length, 3);
  for (const entry of (await entriesBySource(kb.dir)).values()) {
    assertMatch(entry, /A naïve résumé\./);
  }
});

Deno.test("import leaves out an empty note, named with why, and a wikilink to it names it", async () => {
  await using kb = await makeKb({ empty: true });
  const notes = join(kb.root, "notes");
  // Obsidian makes an empty note when a link to a note not written yet is clicked.
  await writeFolder(notes, {
    "Kept.md": "See [[Later]].\n",
    "Later.md": "",
    "Blank.md": " \n\t\n",
  });
  const imported = await runCli(["import", notes, "--json"], { env: kb.env });
  assertEquals(imported.code, 0, show(imported));
  const report = parseJson<ImportJson>(imported);
  assertEquals(report.added.length, 1, JSON.stringify(report));
  assertEquals(report.leftOut, [
    { path: "Blank.md", reason: "is empty: there is nothing in it to keep" },
    { path: "Later.md", reason: "is empty: there is nothing in it to keep" },
  ]);
  assertEquals(report.unresolved.map((link) => [link.name, link.leftOut]), [["Later", "Later.md"]]);
});

Deno.test("import names a FIFO or socket with a note's name, not read, and a wikilink to it names it", async () => {
  await using kb = await makeKb({ empty: true });
  const notes = join(kb.root, "notes");
  await writeFolder(notes, { "Kept.md": "See [[Pipe]].\n" });
  await runProcess("mkfifo", [join(notes, "Pipe.md"), join(notes, "tool.sock")]);
  const imported = await runCli(["import", notes, "--json"], { env: kb.env });
  assertEquals(imported.code, 0, show(imported));
  const report = parseJson<ImportJson>(imported);
  assertEquals(report.added.length, 1, JSON.stringify(report));
  assertEquals(report.leftOut, [
    { path: "Pipe.md", reason: "not a regular file (a FIFO, socket or device): not read" },
    { path: "tool.sock", reason: "not markdown" },
  ]);
  assertEquals(report.unresolved.map((link) => [link.name, link.leftOut]), [["Pipe", "Pipe.md"]]);
});

Deno.test("import whose push fails prints its report, then why and how to finish, and exits 3", async () => {
  await using kb = await makeKb({ empty: true, remote: true });
  const vault = await writeVault(kb.root);
  await git(kb.dir, "remote", "set-url", "origin", join(kb.root, "gone.git"));
  // The line that finishes is pasted: the git-kb it names must run.
  const env = { ...kb.env, KB_CLI: `deno run -A ${shellQuote(MAIN)}` };
  const imported = await runCli(["import", vault], { env });
  assertEquals(imported.code, 3, show(imported));
  const commit = await git(kb.dir, "rev-parse", "--short=7", "HEAD");
  assertMatch(
    imported.stdout,
    new RegExp(
      `^Imported from .*: 3 added, 0 updated, 0 unchanged \\(commit ${commit}, not pushed: see below\\)$`,
      "m",
    ),
    show(imported),
  );
  assertMatch(imported.stdout, /^1 credential masked as \[REDACTED:<kind>\]/m, show(imported));
  assertMatch(imported.stderr, /but it is not pushed: the push to origin failed/, show(imported));
  await git(kb.dir, "remote", "set-url", "origin", kb.remote!);
  const finish = imported.stderr.trimEnd().split("\n").at(-1)!.trim();
  const pasted = await runProcess("sh", ["-c", finish], { env: childEnv(env) });
  assertEquals(pasted.code, 0, `${finish}\n${pasted.stderr}`);
  assertEquals(await git(kb.remote!, "rev-parse", "--short=7", "main"), commit);
  const json = await runCli(["import", vault, "--json"], { env: kb.env });
  assertEquals(json.code, 0, show(json));
});

Deno.test("import --dry-run of an always-apply Cursor rule says it would make it a kernel rule, by its title", async () => {
  await using kb = await makeKb({ empty: true });
  const project = join(kb.root, "project");
  await writeFolder(project, {
    ".cursor/rules/ts.mdc":
      "---\ndescription: Strict TypeScript\nalwaysApply: true\n---\nNo any.\n",
  });
  const dry = await runCli(["import", project, "--dry-run"], { env: kb.env });
  assertEquals(dry.code, 0, show(dry));
  assertMatch(
    dry.stdout,
    /^Would make kernel rules \(alwaysApply\): "Strict TypeScript"$/m,
    show(dry),
  );
  const real = await runCli(["import", project], { env: kb.env });
  assertEquals(real.code, 0, show(real));
  const id = real.stdout.match(/^ {2}(kb-[a-z0-9]+) Strict TypeScript$/m)?.[1];
  assert(id, show(real));
  assertMatch(real.stdout, new RegExp(`^Made kernel rules \\(alwaysApply\\): ${id}$`, "m"));
});

Deno.test("import: the files that are not markdown are counted by kind", async () => {
  await using kb = await makeKb({ empty: true });
  const notes = join(kb.root, "notes");
  await writeFolder(notes, {
    "a.md": "A note.\n",
    "Untitled.canvas": "{}",
    "data/x.json": "{}",
    "data/y.JSON": "{}",
    "Makefile": "all:\n",
    "bin/server": "",
    "a.c": "",
    "b.h": "",
    "c.rb": "",
    "d.go": "",
    "e.ml": "",
  });
  const imported = await runCli(["import", notes, "--dry-run"], { env: kb.env });
  assertEquals(imported.code, 0, show(imported));
  assertMatch(
    imported.stdout,
    /^10 files that are not markdown left out: 2 \.json, 2 with no ending, 1 \.c, 1 \.canvas, 1 \.go, 1 \.h, 2 others \(--json names each\)$/m,
  );
});

Deno.test("import: a wikilink to a note left out names that note, not no note", async () => {
  await using kb = await makeKb({ empty: true });
  const notes = join(kb.root, "notes");
  await Deno.mkdir(notes);
  await Deno.writeTextFile(
    join(notes, "small.md"),
    "See [[huge]], [[Nowhere]], [[Long one|the long one]] and [gone](gone.md).\n",
  );
  // A relative link to a part of a note left out, from a folder below it.
  await Deno.mkdir(join(notes, "sub"));
  await Deno.writeTextFile(join(notes, "sub", "a.md"), "Read [its intro](../huge.md#intro).\n");
  await Deno.writeTextFile(join(notes, "huge.md"), "word ".repeat(30_000) + "\n");
  await Deno.writeTextFile(
    join(notes, "long.md"),
    "---\ntitle: Long one\n---\n" + "word ".repeat(14_000) + "\n",
  );
  const json = await runCli(["import", notes, "--json", "--dry-run"], { env: kb.env });
  assertEquals(json.code, 0, show(json));
  const report = parseJson<ImportJson>(json);
  assertEquals(report.leftOut.map((file) => file.path).sort(), ["huge.md", "long.md"]);
  assertEquals(report.unresolved, [
    { sourcePath: "small.md", name: "huge", leftOut: "huge.md" },
    { sourcePath: "small.md", name: "Nowhere" },
    { sourcePath: "small.md", name: "Long one", leftOut: "long.md" },
    // A markdown link is said to be one: its name is its target, not a wikilink's.
    { sourcePath: "small.md", name: "gone.md", markdown: true },
    { sourcePath: "sub/a.md", name: "../huge.md#intro", markdown: true, leftOut: "huge.md" },
  ]);
  const text = await runCli(["import", notes], { env: kb.env });
  assertEquals(text.code, 0, show(text));
  const lines = text.stdout.split("\n");
  const noNote = lines.indexOf("2 links name no note:");
  assertEquals(
    lines.slice(noNote + 1, noNote + 3),
    ["  small.md: [[Nowhere]]", "  small.md: […](gone.md)"],
    text.stdout,
  );
  const named = lines.indexOf("3 links name notes left out (see below), kept as written:");
  assert(named > 0, text.stdout);
  assertEquals(lines.slice(named + 1, named + 4), [
    "  small.md: [[huge]] (huge.md)",
    "  small.md: [[Long one]] (long.md)",
    "  sub/a.md: […](../huge.md#intro) (huge.md)",
  ]);
});

Deno.test("import reads no link inside an HTML comment or code: none is reported, none resolved", async () => {
  await using kb = await makeKb({ empty: true });
  const notes = join(kb.root, "notes");
  await writeFolder(notes, {
    "Note.md": "The note the others name.\n",
    "cog.md": [
      "<!-- [[[end]]] --> Read [[Note]] <!-- and [[Note]] -->, not [[Nowhere]].",
      "<!-- a comment over lines: [[Hidden one]]",
      "[[Hidden two]] [gone](gone.md) -->after [[Note]]",
      "`[[In code]]` and:",
      "```",
      "[[In a fence]] <!--",
      "```",
      "[[Not in a comment]]",
      "<!-- never closed: [[Never]]",
      "",
    ].join("\n"),
  });
  const json = await runCli(["import", notes, "--json", "--dry-run"], { env: kb.env });
  assertEquals(json.code, 0, show(json));
  const report = parseJson<ImportJson>(json);
  assertEquals(report.unresolved, [
    { sourcePath: "cog.md", name: "Nowhere" },
    { sourcePath: "cog.md", name: "Not in a comment" },
  ]);
  assertEquals(report.linksResolved, 1);
  await runCli(["import", notes], { env: kb.env });
  const [entry] = (await git(kb.dir, "grep", "-l", "cog", "--", "entries")).split("\n");
  const body = await Deno.readTextFile(join(kb.dir, entry));
  // Only the links outside comments and code became mentions; the rest is kept as written.
  assertMatch(
    body,
    /^<!-- \[\[\[end\]\]\] --> Read Note \(\[\[kb-\w{5}\]\]\) <!-- and \[\[Note\]\] -->,/m,
  );
  assertMatch(
    body,
    /^\[\[Hidden two\]\] \[gone\]\(gone\.md\) -->after Note \(\[\[kb-\w{5}\]\]\)$/m,
  );
});

Deno.test("import lists 20 links that name no note, then how many more and the command that lists every one", async () => {
  await using kb = await makeKb({ empty: true });
  const notes = join(kb.root, "graph notes");
  const links = Array.from({ length: 23 }, (_, at) => `[[Page ${at}]]`).join(" ");
  await writeFolder(notes, { "journal.md": `Links: ${links}.\n` });
  const text = await runCli(["import", notes, "--dry-run"], { env: kb.env });
  assertEquals(text.code, 0, show(text));
  const lines = text.stdout.split("\n");
  const first = lines.indexOf("23 links name no note:");
  assert(first > 0, text.stdout);
  assertEquals(lines.slice(first + 1, first + 21).map((line) => line.split(": ")[0]), [
    ...Array(20).fill("  journal.md"),
  ]);
  const listing = kbCommand("import", notes, "--dry-run", "--json");
  assertEquals(lines[first + 21], `  … and 3 more; every one: ${listing}`);
  // Pasted, the line reads back as the import's words (the program is the launcher's path).
  const words = await runProcess("/bin/sh", ["-c", `printf '%s\\0' ${listing}`]);
  const args = words.stdout.split("\0").slice(1, -1);
  assertEquals(args, ["import", notes, "--dry-run", "--json"]);
  const json = await runCli(args, { env: kb.env });
  assertEquals(parseJson<ImportJson>(json).unresolved.length, 23, show(json));
});

Deno.test("import names the hidden folders with notes it does not read, node_modules and hidden notes; the printed import brings a folder's", async () => {
  await using kb = await makeKb({ empty: true });
  const notes = join(kb.root, "it's notes");
  await writeFolder(notes, {
    "Kept.md": "Kept.\n",
    ".draft.md": "Not yet.\n",
    ".gitignore": "*.tmp\n",
    ".obsidian/app.json": "{}",
    ".trash/Old idea.md": "Dropped.\n",
    ".trash/older/Older idea.md": "Dropped long ago.\n",
    ".trash/picture.png": "png",
    "node_modules/pkg/README.md": "# pkg\n",
  });
  await gitRun(notes, ["init", "-q"]);
  const imported = await runCli(["import", ".", "--json"], { env: kb.env, cwd: notes });
  assertEquals(imported.code, 0, show(imported));
  assertEquals(
    await git(kb.dir, "log", "-1", "--format=%s"),
    "kb: import it's notes (1 added, 0 updated)",
    "`import .` names the folder",
  );
  const report = parseJson<ImportJson>(imported);
  assertEquals(report.added.length, 1);
  const trash = join(notes, ".trash");
  assertEquals(report.leftOut.sort((a, b) => a.path.localeCompare(b.path)), [
    { path: ".draft.md", reason: "a hidden file (its name starts with a dot)" },
    {
      path: ".trash/",
      reason: "a hidden folder, not read (2 markdown files in it); to bring them, import it by " +
        `itself: ${kbCommand("import", trash)}`,
    },
    { path: "node_modules/", reason: "a folder of installed packages, not read" },
  ], "neither .git/ nor .obsidian/ (no markdown in them) is named");
  const words = await runProcess("/bin/sh", ["-c", `printf '%s\\0' ${kbCommand("import", trash)}`]);
  assertEquals(words.stdout.split("\0").slice(-3), ["import", trash, ""], "pasted, it reads back");

  const said = await runCli(["import", notes], { env: kb.env });
  assertMatch(said.stdout, /^1 note left out:\n {2}\.draft\.md: a hidden file/m);
  assertMatch(said.stdout, /^2 folders not read:\n {2}\.trash\/: a hidden folder, not read/m);
  const trashed = await runCli(["import", trash, "--json"], { env: kb.env });
  assertEquals(trashed.code, 0, show(trashed));
  assertEquals(parseJson<ImportJson>(trashed).added.length, 2);
});

Deno.test("import again keeps an entry whose kept property was edited in the knowledge base since", async () => {
  await using kb = await makeKb({ empty: true });
  const notes = join(kb.root, "notes");
  await writeFolder(notes, { "Deploy.md": "---\npublish: false\n---\n# Deploy\n\nShip it.\n" });
  const first = parseJson<ImportJson>(await runCli(["import", notes, "--json"], { env: kb.env }));
  const [path] = first.changes;
  const file = join(kb.dir, path);
  const text = await Deno.readTextFile(file);
  assertMatch(text, /^publish: false$/m);
  // By hand, committed: the property the import kept, changed here.
  await Deno.writeTextFile(file, text.replace("publish: false", "publish: true"));
  await git(kb.dir, "commit", "--quiet", "-am", "publish the deploy note");
  await writeFolder(notes, {
    "Deploy.md": "---\npublish: false\n---\n# Deploy\n\nShip it today.\n",
  });
  const again = await runCli(["import", notes, "--json"], { env: kb.env });
  assertEquals(again.code, 0, show(again));
  const report = parseJson<ImportJson & { editedHere: { id: string }[] }>(again);
  assertEquals([report.editedHere.map(({ id }) => id), report.updated], [first.added, []]);
  assertMatch(await Deno.readTextFile(file), /^publish: true$/m, "the edit stands");
});

Deno.test("import again keeps an entry edited in the knowledge base since its import, names it, and the printed --replace-edits takes the note", async () => {
  await using kb = await makeKb({ empty: true });
  const notes = join(kb.root, "notes");
  await writeFolder(notes, {
    "Deploy.md": "---\ntags: [ops]\n---\n# Deploy\n\nShip with make deploy.\n",
    "Rotate.md": "# Rotate\n\nRotate the keys every quarter.\n",
  });
  const first = parseJson<ImportJson & { editedHere: unknown[] }>(
    await runCli(["import", notes, "--json"], { env: kb.env }),
  );
  const idOf = (title: string) =>
    first.added.find((id) =>
      first.changes.some((path) => path.includes(id) && path.includes(title.toLowerCase()))
    )!;
  const deploy = idOf("Deploy");
  const rotate = idOf("Rotate");
  const edited = await runCli(["edit", deploy, "--tag", "mine"], { env: kb.env });
  assertEquals(edited.code, 0, show(edited));
  const linked = await runCli(["edit", rotate, "--link", `related:${deploy}`], { env: kb.env });
  assertEquals(linked.code, 0, show(linked));

  // Nothing changed in the folder: the tag added here stays, the link added here stays.
  const unchanged = await runCli(["import", notes, "--json"], { env: kb.env });
  const kept = parseJson<ImportJson & { editedHere: { id: string }[] }>(unchanged);
  assertEquals([kept.editedHere.map(({ id }) => id), kept.updated], [[deploy], []]);

  // Both notes changed in the folder: the edited entry is kept, the other (its link kept) updated.
  await writeFolder(notes, {
    "Deploy.md":
      "---\ntags: [ops]\n---\n# Deploy\n\nShip with make deploy, then tag the release.\n",
    "Rotate.md": "# Rotate\n\nRotate the keys every month.\n",
  });
  const again = await runCli(["import", notes, "--json"], { env: kb.env });
  assertEquals(again.code, 0, show(again));
  const report = parseJson<ImportJson & { editedHere: { id: string; title: string }[] }>(again);
  assertEquals(report.editedHere, [{ id: deploy, title: "Deploy" }]);
  assertEquals(report.updated, [rotate]);
  const got = await runCli(["get", deploy, rotate], { env: kb.env });
  assertMatch(got.stdout, /^tags: \[ops, mine\]$/m);
  assertMatch(got.stdout, /Ship with make deploy\.$/m);
  assertMatch(got.stdout, /every month/);
  assertMatch(got.stdout, new RegExp(`rel: related, to: ${deploy}`));

  const said = await runCli(["import", notes], { env: kb.env });
  assertMatch(
    said.stdout,
    new RegExp(
      `^1 entry edited in the knowledge base since its last import is kept as it is, ` +
        `not replaced by its note:\\n {2}${deploy} Deploy\\nTo take the note instead: (.*)$`,
      "m",
    ),
  );
  const replace = /^To take the note instead: (.*)$/m.exec(said.stdout)![1];
  const words = await runProcess("/bin/sh", ["-c", `printf '%s\\0' ${replace}`]);
  assertEquals(words.stdout.split("\0").slice(1, -1), ["import", notes, "--replace-edits"]);
  const replaced = await runCli(["import", notes, "--replace-edits", "--json"], { env: kb.env });
  assertEquals(parseJson<ImportJson>(replaced).updated, [deploy]);
  const after = await runCli(["get", deploy], { env: kb.env });
  assertMatch(after.stdout, /then tag the release/);
  assertMatch(after.stdout, /^tags: \[ops\]$/m);
});

Deno.test("import: a note or an attachment swapped for a link between the look and the read is not read through it", async (t) => {
  await using kb = await makeKb({ remote: true });
  const secret = join(kb.root, "private.txt");
  await Deno.writeTextFile(secret, "my bank PIN is 4921\n");
  const kept = async () => {
    const grep = await gitRun(kb.dir, ["grep", "-l", "bank PIN", "HEAD"]);
    const pushed = await gitRun(kb.remote!, ["grep", "-l", "bank PIN", "main"]);
    return grep.stdout + pushed.stdout;
  };
  // What anyone who can write a folder imported from could do between import's look and read.
  await t.step("a note is left out, named", async () => {
    const notes = join(kb.root, "shared notes");
    await writeFolder(notes, {
      "Harmless.md": "# Harmless\n\nA note about tea.\n",
      "Other.md": "# Other\n\nA note about coffee.\n",
    });
    const result = await runCliSwappingAtLook(["import", notes, "--json"], kb.env, {
      file: join(notes, "Harmless.md"),
      linkTo: secret,
      caller: "walk",
    });
    assertEquals(result.code, 0, show(result));
    const { leftOut, added } = parseJson<ImportJson>(result);
    assertMatch(
      leftOut.find((file) => file.path === "Harmless.md")?.reason ?? "",
      /was replaced \(by a link, a FIFO or another file\) while it was read; import again/,
    );
    assertEquals(added.length, 1, show(result));
    assertEquals(await kept(), "");
  });
  await t.step("an attachment stops the import, nothing written", async () => {
    const notes = join(kb.root, "drawings");
    await writeFolder(notes, {
      "Diagram.md": "# Diagram\n\nSee ![[chart.png]].\n",
      "chart.png": "png bytes",
    });
    const head = await git(kb.dir, "rev-parse", "HEAD");
    const result = await runCliSwappingAtLook(["import", notes], kb.env, {
      file: join(notes, "chart.png"),
      linkTo: secret,
      caller: "readAttachment",
    });
    assertEquals(result.code, 1, show(result));
    assertMatch(result.stderr, /chart\.png changed while it was imported; import again/);
    assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head);
    assertEquals(await kept(), "");
  });
});

Deno.test("import of the folder that holds the knowledge base reads its notes, not the entries it wrote, so a second import adds nothing", async () => {
  await using kb = await makeKb({ remote: true, empty: true });
  await writeFolder(kb.dir, {
    "Top note.md": "# Top note\nRead me.\n",
    "ops/Deploy.md": "Ship with `make deploy`.\n![diagram](diagram.png)\n",
    "ops/diagram.png": "png",
  });
  const first = await runCli(["import", kb.dir, "--json"], { env: kb.env });
  assertEquals(first.code, 0, show(first));
  assertEquals(parseJson<ImportJson>(first).added.length, 2);
  const again = await runCli(["import", kb.dir, "--json"], { env: kb.env });
  assertEquals(again.code, 0, show(again));
  const second = parseJson<ImportJson>(again);
  assertEquals([second.added.length, second.unchanged.length], [0, 2], show(again));
  const reason = "the knowledge base's own folder, which git-kb writes: not read as notes";
  assertEquals(second.leftOut.filter((file) => file.reason === reason).map((file) => file.path), [
    "attachments/",
    "entries/",
  ]);
  const entries = [...Deno.readDirSync(join(kb.dir, "entries"))].filter((file) =>
    file.name.endsWith(".md")
  );
  assertEquals(entries.length, 2, "no entry imported again as a new one");
});
