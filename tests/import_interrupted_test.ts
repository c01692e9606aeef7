/**
 * An import killed (or out of disk) between writing its entry files and committing them leaves
 * files that the next import would call unchanged and never commit: the next import commits
 * them, and `doctor` reports them with the command that commits them. The interruption is made
 * exact: a real import, then its commit undone with the files kept (`git reset HEAD~1`).
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import type { Finding } from "../core/setup/finding.ts";
import { git, makeKb, parseJson, runCli, show } from "./helpers.ts";

interface ImportJson {
  added: string[];
  updated: string[];
  unchanged: string[];
  recovered: string[];
  save?: { commit: string };
}

Deno.test("import: entry files an interrupted import left uncommitted are committed by the next", async () => {
  await using kb = await makeKb({ empty: true });
  const notes = join(kb.root, "notes");
  await Deno.mkdir(notes);
  await Deno.writeTextFile(join(notes, "Deploy.md"), "# Deploy\n\nRun make deploy.\n");
  await Deno.writeTextFile(join(notes, "Rollback.md"), "# Rollback\n\nRun make rollback.\n");
  const run = (...args: string[]) => runCli(["import", notes, ...args], { env: kb.env });
  assertEquals((await run()).code, 0);

  // An import that updates one note and adds another, stopped before its commit.
  await Deno.writeTextFile(join(notes, "Rollback.md"), "# Rollback\n\nRun make rollback twice.\n");
  await Deno.writeTextFile(join(notes, "Restore.md"), "# Restore\n\nRun make restore.\n");
  const stopped = parseJson<ImportJson>(await run("--json"));
  const written = [...stopped.updated, ...stopped.added].sort();
  assertEquals(written.length, 2);
  await git(kb.dir, "reset", "--quiet", "HEAD~1");
  const left = await git(kb.dir, "status", "--porcelain", "--untracked-files=all");
  assertMatch(left, /^M entries\/.*\n\?\? entries\//, left);

  const doctor = parseJson<Finding[]>(
    await runCli(["doctor", "--offline", "--json"], { env: kb.env }),
  );
  const orphans = doctor.find((item) => item.check === "entries" && item.level === "warn");
  assert(orphans?.message.includes(stopped.added[0]), JSON.stringify(doctor));
  assertMatch(orphans!.message, /commit them: git -C .* add -- /);
  const dirty = doctor.find((item) => /2 uncommitted changes under entries\//.test(item.message));
  for (const id of written) assert(dirty?.message.includes(id), JSON.stringify(dirty));
  assertMatch(dirty!.message, /; fix: git -C .* add -- 'entries\/\*\.md' /);

  const dry = await run("--dry-run");
  assertMatch(dry.stdout, /Would commit 2 entries an earlier import wrote but never committed/);
  const again = await run("--json");
  assertEquals(again.code, 0, show(again));
  const report = parseJson<ImportJson>(again);
  assertEquals(report.added, []);
  assertEquals(report.updated, []);
  assertEquals(report.recovered.sort(), written);
  assert(report.save?.commit, "a commit was made");
  assertEquals(await git(kb.dir, "status", "--porcelain", "--untracked-files=all"), "");
  assertMatch(await git(kb.dir, "log", "-1", "--format=%s"), /2 left uncommitted before/);

  const settled = parseJson<ImportJson>(await run("--json"));
  assertEquals(settled.recovered, []);
  assertEquals(settled.save, undefined, "nothing more to commit");
});
