/**
 * The exit codes live in one table, core/exit.ts's `EXIT`: spec/cli.md's "Exit codes" table lists
 * the same codes with the same meanings, and no source file spells an exit code of an error as a
 * number of its own.
 */
import { assert, assertEquals } from "@std/assert";
import { join } from "@std/path/posix/join";
import { EXIT, EXIT_MEANINGS } from "../core/exit.ts";
import { ROOT } from "./helpers.ts";

/** The rows of spec/cli.md's "Exit codes" table: code → meaning. */
async function specTable(): Promise<Map<number, string>> {
  const spec = await Deno.readTextFile(join(ROOT, "spec", "cli.md"));
  const section = spec.split(/^## /m).find((part) => part.startsWith("Exit codes\n"));
  assert(section, "spec/cli.md has a section ## Exit codes");
  const rows = [...section.matchAll(/^\|\s*(\d+)\s*\|\s*(.*?)\s*\|$/gm)];
  return new Map(rows.map(([, code, meaning]) => [Number(code), meaning]));
}

Deno.test("spec/cli.md's exit codes are the code's: the same codes, each row opening with its meaning", async () => {
  const spec = await specTable();
  assertEquals([...spec.keys()], Object.values(EXIT).sort());
  for (const [code, meaning] of Object.entries(EXIT_MEANINGS)) {
    const row = spec.get(Number(code)) ?? "";
    assert(
      row.startsWith(meaning),
      `exit ${code}: spec/cli.md says "${row}", the code "${meaning}"`,
    );
  }
});

/** Every source file that carries errors or exit codes: not tests, generated or vendored code. */
function sources(dir: string): string[] {
  const found: string[] = [];
  for (const item of Deno.readDirSync(join(ROOT, dir))) {
    const path = `${dir}/${item.name}`;
    if (item.isDirectory) found.push(...sources(path));
    else if (path.endsWith(".ts") && !path.endsWith("_test.ts")) found.push(path);
  }
  return found;
}

Deno.test("no error picks its exit code as a number of its own: each comes from EXIT", () => {
  const numbered = /\bexitCode\s*[:=]\s*\d|exitCodeOf\([^)]*\)\s*[!=]==?\s*\d/;
  const offending = ["core", "io", "cli", "hooks", "app"].flatMap(sources).flatMap((path) =>
    Deno.readTextFileSync(join(ROOT, path)).split("\n")
      .map((line, at) => ({ where: `${path}:${at + 1}`, line }))
      .filter(({ line }) => numbered.test(line))
      .map(({ where, line }) => `${where}: ${line.trim()}`)
  );
  assertEquals(offending, []);
});
