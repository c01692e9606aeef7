/**
 * A knowledge base over the size the hooks check file by file each minute, for the freshness
 * tests: there the hooks trust a check for ten minutes, so an entry rewritten in place reaches
 * them only through a check made elsewhere (the session's watch).
 *
 * @module
 */
import { assertEquals } from "@std/assert";
import { join } from "@std/path/posix/join";
import { SMALL_KB_FILES } from "../io/index/store.ts";
import { entryPath, entryText, git, type Kb, makeKb, runCli, show } from "./helpers.ts";

/** A modification time long before any test ran. */
export const YEARS_AGO = new Date("2020-01-02T03:04:05Z");

/** The sample knowledge base, with filler entries to be over {@link SMALL_KB_FILES}, indexed. */
export async function makeBigKb(): Promise<Kb> {
  const kb = await makeKb();
  for (let index = 0; index < SMALL_KB_FILES; index++) {
    const id = `kb-f${index.toString(36).padStart(4, "0")}`;
    await Deno.writeTextFile(
      join(kb.dir, "entries", `${id}-filler.md`),
      entryText({ id, title: `Filler note ${index}`, body: `Filler ${index}.\n` }),
    );
  }
  await git(kb.dir, "add", "-A");
  await git(kb.dir, "commit", "--quiet", "-m", "filler");
  const indexed = await runCli(["index"], { env: kb.env });
  assertEquals(indexed.code, 0, show(indexed));
  return kb;
}

/**
 * Give the file of entry `id` an mtime years ago and index it, so the stamp no longer watches
 * it; returns its absolute path.
 */
export async function makeCold(kb: Kb, id: string): Promise<string> {
  const path = join(kb.dir, await entryPath(kb.dir, id));
  await Deno.utime(path, YEARS_AGO, YEARS_AGO);
  const indexed = await runCli(["index"], { env: kb.env });
  assertEquals(indexed.code, 0, show(indexed));
  return path;
}

/** Rewrite the title of the entry file at `path` in place, as VS Code or nano save. */
export async function retitleInPlace(path: string, title: string): Promise<void> {
  const text = await Deno.readTextFile(path);
  await Deno.writeTextFile(path, text.replace(/^title: .*$/m, `title: ${title}`));
}
