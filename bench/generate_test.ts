/**
 * Smoke test of the synthetic knowledge base generator: what it writes honours the entry
 * contract. Run with `deno test --allow-read --allow-write bench/generate_test.ts`.
 */
import { join } from "@std/path/posix/join";
import { checkAgainstKb, formatProblems, parseEntryText, toEntry } from "../core/entry/entry.ts";
import type { Entry } from "../core/entry/entry.ts";
import { generateEntries, generateKb } from "./generate.ts";

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

Deno.test("generateKb writes 50 entries that honour the contract", async () => {
  const dir = await Deno.makeTempDir({ prefix: "git-kb-generate-test-" });
  try {
    const kb = await generateKb(dir, 50, 7);
    const names = [...Deno.readDirSync(join(dir, "entries"))].map((item) => item.name).sort();
    assert(names.length === 50, `expected 50 files, found ${names.length}`);

    const parsed = new Map<string, { entry: Entry; path: string }>();
    for (const name of names) {
      const path = `entries/${name}`;
      const text = Deno.readTextFileSync(join(dir, path));
      const { entry, problems } = toEntry(parseEntryText(text, path));
      assert(entry && problems.length === 0, `${path} has problems:\n${formatProblems(problems)}`);
      assert(name.startsWith(`${entry.id}-`), `${name} does not start with its id ${entry.id}`);
      assert(!parsed.has(entry.id), `id ${entry.id} is used twice`);
      const chars = entry.body.length;
      if (!entry.kernel) assert(chars >= 300 && chars <= 2000, `${path}: body of ${chars} chars`);
      assert(
        entry.tags.length >= 2 && entry.tags.length <= 5,
        `${path}: ${entry.tags.length} tags`,
      );
      const words = entry.title.split(" ").length;
      assert(words >= 4 && words <= 9, `${path}: title of ${words} words`);
      parsed.set(entry.id, { entry, path });
    }

    const kernel = [...parsed.values()].filter(({ entry }) => entry.kernel);
    assert(kernel.length === 2, `expected exactly 2 kernel entries, found ${kernel.length}`);
    for (const { entry } of kernel) {
      assert(entry.status === "active", `kernel entry ${entry.id} is ${entry.status}`);
      assert(entry.body.length < 400, `kernel entry ${entry.id} has a long body`);
    }

    const ids = new Map([...parsed].map(([id, { path }]) => [id, path]));
    const order = new Map(kb.entries.map(({ entry }, index) => [entry.id, index]));
    for (const { entry, path } of parsed.values()) {
      const problems = checkAgainstKb(entry, { ids, path });
      assert(problems.length === 0, `${path}:\n${formatProblems(problems)}`);
      for (const link of entry.links) {
        assert(ids.has(link.to), `${entry.id} links to ${link.to}, which does not exist`);
        assert(order.get(link.to)! < order.get(entry.id)!, `${entry.id} links forward`);
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("generateEntries is deterministic for a seed and differs across seeds", () => {
  const first = generateEntries(30, 11).map(({ path }) => path);
  const again = generateEntries(30, 11).map(({ path }) => path);
  const other = generateEntries(30, 12).map(({ path }) => path);
  assert(JSON.stringify(first) === JSON.stringify(again), "same seed gave different entries");
  assert(JSON.stringify(first) !== JSON.stringify(other), "different seeds gave the same entries");
});
