/**
 * `git-kb export` through the real CLI: the sample knowledge base's kernel rules are written into
 * a project's agent files between markers, the user's own text is kept, a rerun changes nothing,
 * `--check` exits 1 on a stale file, and a CLAUDE.md linked to AGENTS.md stays a link.
 */
import { match, ok, strictEqual as equal } from "node:assert/strict";
import { join } from "@std/path/posix/join";
import { makeKb, parseJson, runCli, show } from "./helpers.ts";

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

  const first = await run("--json");
  equal(first.code, 0, show(first));
  const report = parseJson<ExportJson>(first);
  ok(report.rules > 0, "the sample knowledge base has kernel rules");
  equal(
    report.files.map((file) => `${file.path}:${file.state}`).join(" "),
    "AGENTS.md:written .cursor/rules/git-kb.mdc:written",
  );
  const agents = await Deno.readTextFile(join(project, "AGENTS.md"));
  ok(agents.startsWith("# My project\n\nRun make test.\n\n<!-- git-kb:begin"));
  match(agents, /git-kb context/);
  match(agents, /<!-- git-kb:end -->\n$/);
  match(await Deno.readTextFile(join(project, ".cursor/rules/git-kb.mdc")), /alwaysApply: true/);

  const again = await run();
  equal(again.code, 0, show(again));
  match(again.stdout, /^ok AGENTS\.md$/m);
  equal((await run("--check")).code, 0);

  await Deno.writeTextFile(join(project, "AGENTS.md"), agents.replace("git-kb context", "x"));
  const stale = await run("--check");
  equal(stale.code, 1, show(stale));
  match(stale.stdout, /stale AGENTS\.md/);

  await Deno.symlink("AGENTS.md", join(project, "CLAUDE.md"));
  const linked = parseJson<ExportJson>(await run("--to", "agents", "--to", "claude", "--json"));
  equal(linked.files.length, 1, "one file behind two names is written once");
  ok((await Deno.lstat(join(project, "CLAUDE.md"))).isSymlink);
  equal(await Deno.readTextFile(join(project, "AGENTS.md")), agents);

  equal((await run("--to", "vim")).code, 2);
});
