/**
 * `git-kb import` through the real CLI on real git with a bare remote: an Obsidian vault comes in
 * as one commit with its tags, dates and wikilinks; a note holding a credential is left out and
 * named; a second import changes nothing, and a changed note is updated in place.
 */
import { deepStrictEqual as deepEqual, match, ok, strictEqual as equal } from "node:assert/strict";
import { join } from "node:path";
import { git, makeKb, parseJson, runCli, show, snapshot } from "./helpers.ts";

interface ImportJson {
  kind: string;
  added: string[];
  updated: string[];
  unchanged: string[];
  changes: string[];
  linksResolved: number;
  unresolved: { sourcePath: string; name: string }[];
  leftOut: { path: string; reason: string }[];
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
  await Deno.writeTextFile(join(vault, "Deploy.md"), "Ship with `make deploy`.\n");
  const token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
  await Deno.writeTextFile(join(vault, "Secrets.md"), `The CI token is ${token}\n`);
  await Deno.writeTextFile(join(vault, "diagram.png"), "png");
  return vault;
}

Deno.test("import: a vault in one commit, secrets left out, a second import updates in place", async () => {
  await using kb = await makeKb({ remote: true, empty: true });
  const vault = await writeVault(kb.root);
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const dry = await runCli(["import", vault, "--dry-run"], { env: kb.env });
  equal(dry.code, 0, show(dry));
  match(dry.stdout, /Would import from .* \(obsidian\): 2 added, 0 updated, 0 unchanged/);
  equal(await git(kb.dir, "rev-parse", "HEAD"), head, "a dry run writes nothing");

  const first = await runCli(["import", vault, "--json"], { env: kb.env });
  equal(first.code, 0, show(first));
  const report = parseJson<ImportJson>(first);
  equal(report.kind, "obsidian");
  equal(report.added.length, 2);
  equal(report.linksResolved, 1);
  deepEqual(report.unresolved, [{ sourcePath: "Ops/Rotate keys.md", name: "Nowhere" }]);
  const secrets = report.leftOut.find((file) => file.path === "Secrets.md");
  ok(secrets && /GitHub token/.test(secrets.reason), JSON.stringify(report.leftOut));
  ok(!first.stdout.includes("a1B2c3D4e5F6"), "the credential is never printed whole");
  ok(report.leftOut.some((file) => file.path === "diagram.png"));
  equal(report.save?.push, "pushed");
  equal(await git(kb.dir, "rev-parse", "HEAD~1"), head, "one commit for the whole import");
  equal(await git(kb.remote!, "rev-parse", "main"), report.save?.commit);

  const found = await runCli(["search", "rotate quarterly", "--json"], { env: kb.env });
  equal(found.code, 0, show(found));
  const rotatePath = report.changes.find((path) => path.includes("rotate-keys"))!;
  const rotate = await Deno.readTextFile(join(kb.dir, rotatePath));
  match(rotate, /^tags: \[aws, security, quarterly, ops\]$/m);
  match(rotate, /^created: 2022-01-02$/m);
  match(rotate, /^imported_from: Ops\/Rotate keys\.md$/m);
  match(rotate, /See the deploy notes \(\[\[kb-\w{5}\]\]\) and \[\[Nowhere\]\]\./);
  match(rotate, /- \{ rel: related, to: kb-\w{5} \}/);

  const again = await runCli(["import", vault, "--json"], { env: kb.env });
  equal(again.code, 0, show(again));
  const second = parseJson<ImportJson>(again);
  deepEqual([second.added.length, second.updated.length, second.unchanged.length], [0, 0, 2]);
  equal(second.save, undefined);

  await Deno.writeTextFile(join(vault, "Deploy.md"), "Ship with `make release` now.\n");
  const changed = parseJson<ImportJson>(
    await runCli(["import", vault, "--json"], { env: kb.env }),
  );
  equal(changed.updated.length, 1);
  equal(changed.added.length, 0);
  const entries = [...Deno.readDirSync(join(kb.dir, "entries"))].filter((file) =>
    file.name.endsWith(".md")
  );
  equal(entries.length, 2, "no duplicate entries");
});

Deno.test("import: agent files become rules, an alwaysApply rule a kernel rule", async () => {
  await using kb = await makeKb({ remote: true, empty: true });
  const project = join(kb.root, "project");
  await Deno.mkdir(join(project, ".cursor", "rules"), { recursive: true });
  await Deno.writeTextFile(
    join(project, "CLAUDE.md"),
    "# Project\n\n@~/.claude/prefs.md\n\n## Testing\n\nRun `deno task test` first.\n\n" +
      "## Commits\n\nOne change per commit.\n",
  );
  await Deno.writeTextFile(
    join(project, ".cursor", "rules", "no-any.mdc"),
    "---\ndescription: No any in TypeScript\nglobs: src/**/*.ts\nalwaysApply: true\n---\n" +
      "Never use `any`; use unknown.\n",
  );
  const before = await snapshot(project);
  const result = await runCli(["import", project, "--json"], { env: kb.env });
  equal(result.code, 0, show(result));
  const report = parseJson<ImportJson & { kernel: string[] }>(result);
  equal(report.added.length, 3);
  equal(report.kernel.length, 1);
  ok(report.leftOut.some((file) => file.path === "CLAUDE.md @~/.claude/prefs.md"));
  deepEqual(await snapshot(project), before, "the source folder is never modified");
  const context = await runCli(["context", "typescript any type", "--json"], { env: kb.env });
  equal(context.code, 0, show(context));
  match(context.stdout, /Never use `any`/);
  const rules = await runCli(["search", "commit change", "--json"], { env: kb.env });
  match(rules.stdout, /"type": ?"rule"/);
});

Deno.test("import: usage errors exit 2 and a missing folder exits 1 with its name", async () => {
  await using kb = await makeKb({ empty: true });
  equal((await runCli(["import"], { env: kb.env })).code, 2);
  equal((await runCli(["import", kb.root, "--from", "notion"], { env: kb.env })).code, 2);
  const missing = await runCli(["import", join(kb.root, "nope")], { env: kb.env });
  equal(missing.code, 1, show(missing));
  match(missing.stderr, /nope/);
});
