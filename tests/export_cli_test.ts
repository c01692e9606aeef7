/**
 * `git-kb export` through the real CLI: the sample knowledge base's kernel rules are written into
 * a project's agent files between markers, the user's own text is kept, a rerun changes nothing,
 * `--check` exits 1 on a missing or stale file, and a CLAUDE.md linked to AGENTS.md stays a link.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { git, makeKb, parseJson, runCli, show } from "./helpers.ts";

interface ExportJson {
  files: { name: string; path: string; state: string; leftOut: string[] }[];
  rules: number;
}

Deno.test("export: markers, the user's text kept, idempotent, --check, links followed", async () => {
  await using kb = await makeKb();
  const project = join(kb.root, "project");
  await Deno.mkdir(join(project, ".cursor"), { recursive: true });
  await Deno.writeTextFile(join(project, "AGENTS.md"), "# My project\n\nRun make test.\n");
  const run = (...args: string[]) => runCli(["export", "--dir", project, ...args], { env: kb.env });

  // Before the first export, the Cursor rule file does not exist: missing, not stale.
  const before = await run("--check");
  assertEquals(before.code, 1, show(before));
  assertMatch(before.stdout, /^stale AGENTS\.md$/m);
  assertMatch(before.stdout, /^missing \.cursor\/rules\/git-kb\.mdc$/m);
  assertMatch(before.stderr, /Agent files are missing or stale: run .* to write them\./);

  const first = await run("--json");
  assertEquals(first.code, 0, show(first));
  const report = parseJson<ExportJson>(first);
  assert(report.rules > 0, "the sample knowledge base has kernel rules");
  assertEquals(
    report.files.map((file) => `${file.path}:${file.state}`).join(" "),
    "AGENTS.md:written .cursor/rules/git-kb.mdc:written",
  );
  const agents = await Deno.readTextFile(join(project, "AGENTS.md"));
  assert(agents.startsWith("# My project\n\nRun make test.\n\n<!-- git-kb:begin"));
  assertMatch(agents, /git-kb context/);
  assertMatch(agents, /<!-- git-kb:end -->\n$/);
  assertMatch(
    await Deno.readTextFile(join(project, ".cursor/rules/git-kb.mdc")),
    /alwaysApply: true/,
  );

  const again = await run();
  assertEquals(again.code, 0, show(again));
  assertMatch(again.stdout, /^ok AGENTS\.md$/m);
  assertEquals((await run("--check")).code, 0);

  await Deno.writeTextFile(join(project, "AGENTS.md"), agents.replace("git-kb context", "x"));
  const stale = await run("--check");
  assertEquals(stale.code, 1, show(stale));
  assertMatch(stale.stdout, /stale AGENTS\.md/);

  await Deno.symlink("AGENTS.md", join(project, "CLAUDE.md"));
  const linked = parseJson<ExportJson>(await run("--to", "agents", "--to", "claude", "--json"));
  assertEquals(linked.files.length, 1, "one file behind two names is written once");
  assert((await Deno.lstat(join(project, "CLAUDE.md"))).isSymlink);
  assertEquals(await Deno.readTextFile(join(project, "AGENTS.md")), agents);

  assertEquals((await run("--to", "vim")).code, 2);
});

Deno.test("import of a project after export leaves out the files export wrote whole, naming them, and brings no rule back twice", async () => {
  await using kb = await makeKb();
  const project = join(kb.root, "project");
  await Deno.mkdir(join(project, ".cursor", "rules"), { recursive: true });
  await Deno.mkdir(join(project, ".windsurf"), { recursive: true });
  await Deno.writeTextFile(join(project, "CLAUDE.md"), "# Mine\n\n## Testing\n\nRun make test.\n");
  await Deno.writeTextFile(
    join(project, ".cursor", "rules", "db.mdc"),
    "---\ndescription: Database rules\nalwaysApply: true\n---\nNo migrations by hand.\n",
  );
  const exported = await runCli(["export", "--dir", project], { env: kb.env });
  assertEquals(exported.code, 0, show(exported));

  interface ImportJson {
    added: string[];
    kernel: string[];
    leftOut: { path: string; reason: string }[];
  }
  const run = async (folder: string) => {
    const result = await runCli(["import", folder, "--dry-run", "--json"], { env: kb.env });
    assertEquals(result.code, 0, show(result));
    return parseJson<ImportJson>(result);
  };
  const own = /holds only git-kb's own block, which git-kb export wrote/;
  const report = await run(project);
  // CLAUDE.md's Testing section and the user's Cursor rule; AGENTS.md and git-kb.mdc are export's.
  assertEquals(report.added.length, 2, JSON.stringify(report));
  assertEquals(report.kernel.length, 1, "only the user's alwaysApply rule becomes a kernel rule");
  for (const path of ["AGENTS.md", ".cursor/rules/git-kb.mdc"]) {
    assertMatch(report.leftOut.find((file) => file.path === path)?.reason ?? "", own, path);
  }
  // .windsurf/ holds nothing but export's file: no hint to import it by itself.
  assertEquals(report.leftOut.filter((file) => file.path.startsWith(".windsurf")), []);
  const windsurf = await run(join(project, ".windsurf"));
  assertEquals(windsurf.added, []);
  assertMatch(windsurf.leftOut.find((file) => file.path === "rules/git-kb.md")?.reason ?? "", own);
});

Deno.test("export names a kernel rule it leaves out because it waits for acceptance here, with the kernel line that reviews it", async () => {
  await using kb = await makeKb();
  const project = join(kb.root, "project");
  await Deno.mkdir(project);
  // Saved on the user's other machine: here it waits until accepted.
  await Deno.writeTextFile(
    join(kb.dir, "entries", "kb-w8ait-use-pnpm.md"),
    "---\nid: kb-w8ait\ntitle: Use pnpm not npm\ntype: rule\nkernel: true\nstatus: active\n" +
      "created: 2026-01-02\nupdated: 2026-01-02\n---\nAlways use pnpm here.\n",
  );
  await git(kb.dir, "add", "-A");
  await git(kb.dir, "commit", "-q", "-m", "kb: a rule from the other machine");

  const json = parseJson<ExportJson & { waiting: string[] }>(
    await runCli(["export", "--dir", project, "--json"], { env: kb.env }),
  );
  assertEquals(json.waiting, ["kb-w8ait"]);
  const said = await runCli(["export", "--dir", project], { env: { ...kb.env, KB_CLI: "git-kb" } });
  assertEquals(said.code, 0, show(said));
  assertEquals(/Use pnpm/.test(await Deno.readTextFile(join(project, "AGENTS.md"))), false);
  const line = said.stdout.match(
    /^Not in the block: a kernel rule waits .*kb-w8ait "Use pnpm not npm" \(new\)\. Accept it, then export again; review it: (.*)$/m,
  )?.[1];
  assertEquals(line, "git-kb kernel", show(said));
});

Deno.test("export --dir: a folder that is not there is named in one line; ~/… is the home folder's", async () => {
  await using kb = await makeKb();
  const missing = await runCli(["export", "--dir", join(kb.root, "nope")], { env: kb.env });
  assertEquals(missing.code, 1, show(missing));
  assertEquals(
    missing.stderr,
    `git-kb export: ${join(kb.root, "nope")} does not exist; give --dir the project's folder, ` +
      "whose agent files export writes\n",
  );
  await Deno.mkdir(join(kb.home, "my project"));
  const home = await runCli(["export", "--dir", "~/my project"], { env: kb.env });
  assertEquals(home.code, 0, show(home));
  assertMatch(await Deno.readTextFile(join(kb.home, "my project", "AGENTS.md")), /git-kb context/);
});

Deno.test("export --kb of a knowledge base git-kb reads only when told: the block's commands name it, so its ids are fetched as printed", async () => {
  await using kb = await makeKb();
  const project = join(kb.root, "project");
  await Deno.mkdir(project);
  // No KB_DIR and no config: only --kb names this knowledge base.
  const { KB_DIR: _, ...env } = kb.env;
  const exported = await runCli(["export", "--kb", kb.dir, "--dir", project], { env });
  assertEquals(exported.code, 0, show(exported));
  const block = await Deno.readTextFile(join(project, "AGENTS.md"));
  const id = block.match(/^### .* \((kb-\w{5})\)$/m)![1];
  const get = block.match(/`git-kb get <id> --kb (\S+)`/);
  assert(get, block);
  assertMatch(block, new RegExp(`git-kb context --kb ${kb.dir} "`));
  const fetched = await runCli(["get", id, "--kb", get[1]], { env });
  assertEquals(fetched.code, 0, show(fetched));
  assertMatch(fetched.stdout, new RegExp(`^id: ${id}$`, "m"));

  // One that KB_DIR names is read without --kb: the block stays as it always was.
  const plain = await runCli(["export", "--kb", kb.dir, "--dir", project], { env: kb.env });
  assertEquals(plain.code, 0, show(plain));
  const text = await Deno.readTextFile(join(project, "AGENTS.md"));
  assertMatch(text, /fetch an entry it points at with `git-kb get <id>`\./);
  assert(!text.includes("--kb"), text);
});
