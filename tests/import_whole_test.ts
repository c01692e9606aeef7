/**
 * Every note of an import comes in whole, through the real CLI on real git: two folders that share
 * a relative path keep an entry each; a note a scanner dislikes comes in with the value masked
 * (or whole, when the user allows that one note); link text, descriptions and attachments survive;
 * a name or a value the contract cannot hold is fixed or cut, and the report says so.
 */
import { deepStrictEqual as deepEqual, match, ok, strictEqual as equal } from "node:assert/strict";
import { join } from "node:path";
import { makeKb, parseJson, runCli, show } from "./helpers.ts";

interface ImportJson {
  added: string[];
  updated: string[];
  unchanged: string[];
  changes: string[];
  leftOut: { path: string; reason: string }[];
  masked: { path: string; line: number; kind: string }[];
  cut: { path: string; field: string; what: string }[];
  attachments: { brought: string[]; missing: { path: string; target: string }[] };
  save?: { commit: string; push: string };
}

/** Write `files` (path inside the folder → text) under `folder`. */
async function writeFolder(folder: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    const file = join(folder, path);
    await Deno.mkdir(join(file, ".."), { recursive: true });
    await Deno.writeTextFile(file, text);
  }
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
  equal(result.code, 0, show(result));
  return parseJson<ImportJson>(result);
}

Deno.test("import: two folders sharing a relative path keep an entry each; a rerun changes nothing", async () => {
  await using kb = await makeKb({ remote: true, empty: true });
  const work = join(kb.root, "work", "vault");
  const home = join(kb.root, "home", "vault");
  await writeFolder(work, { "Home.md": "# Home\n\nThe on-call rota is in the wiki.\n" });
  await writeFolder(home, { "Home.md": "# Home\n\nBuy milk and eggs.\n" });
  const first = await importJson(kb.env, work);
  equal(first.added.length, 1);
  const second = await importJson(kb.env, home);
  deepEqual([second.added.length, second.updated.length], [1, 0], JSON.stringify(second));
  const texts = [...(await entryFiles(kb.dir)).values()];
  equal(texts.length, 2);
  ok(texts.some((text) => text.includes("on-call rota")), "the work note is still there");
  ok(texts.some((text) => text.includes("Buy milk")), "the home note came in beside it");
  for (const folder of [work, home]) {
    const again = await importJson(kb.env, folder);
    deepEqual([again.added.length, again.updated.length, again.unchanged.length], [0, 0, 1]);
    equal(again.save, undefined, "an unchanged rerun writes nothing");
  }
  await Deno.writeTextFile(join(home, "Home.md"), "# Home\n\nBuy bread.\n");
  const changed = await importJson(kb.env, home);
  deepEqual([changed.added.length, changed.updated.length], [0, 1]);
  const after = [...(await entryFiles(kb.dir)).values()];
  ok(after.some((text) => text.includes("on-call rota")), "the other folder's entry is untouched");
  ok(after.some((text) => text.includes("Buy bread")));
});
