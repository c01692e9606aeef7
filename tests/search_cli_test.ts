/**
 * `git-kb search` forgiving what people type, as a real process on the sample knowledge base: a
 * typo, a compound written apart, a query of common words only, a superseded entry's exact title,
 * and a cache of the index format before the tokenizer's rebuilt.
 */
import { assert, assertEquals, assertMatch, assertStrictEquals } from "@std/assert";
import { join } from "@std/path/posix/join";
import { cacheRootOf, makeKb, parseJson, runCli, show } from "./helpers.ts";

interface Hit {
  id: string;
  title: string;
  status: string;
}

Deno.test("search forgives typos and compounds, says when a query is only common words", async (t) => {
  await using kb = await makeKb();
  const search = (...args: string[]) => runCli(["search", ...args], { env: kb.env });
  const warm = await runCli(["index"], { env: kb.env });
  assertEquals(warm.code, 0, show(warm));

  await t.step("a typo finds the entry its corrected word names", async () => {
    const result = await search("idmepotency", "--json");
    assertEquals(result.code, 0, show(result));
    assertStrictEquals(parseJson<Hit[]>(result)[0]?.title, "Idempotency keys", show(result));
  });

  await t.step("a compound written apart, or joined, finds it", async () => {
    for (const query of ["squash merge", "squashmerge"]) {
      const result = await search(query, "--json");
      assertStrictEquals(
        parseJson<Hit[]>(result)[0]?.title,
        "Squash-merge pull requests into main",
        query,
      );
    }
  });

  await t.step("a query of common words only says so, and how to go on", async () => {
    const result = await search("how do i", "what is it");
    assertEquals(result.code, 0, show(result));
    assertMatch(result.stdout, /"how do i", "what is it" are made only of common words/);
    assertMatch(result.stdout, /git-kb search 'rotate token'/);
    const json = await search("the", "--json");
    assertEquals(parseJson(json), []);
    assertMatch(json.stderr, /"the" is made only of common words/);
    const some = await search("the", "idempotency", "--json");
    assert(parseJson<Hit[]>(some).length > 0, "a query with a real word is searched");
  });

  await t.step("a superseded entry's exact title finds it first, marked superseded", async () => {
    const result = await search("Notes from the March token exposure");
    assertEquals(result.code, 0, show(result));
    const first = result.stdout.split("\n")[0];
    assertMatch(first, /^kb-3hd8w .*superseded/, show(result));
  });
});

Deno.test("a search that finds nothing says when the index left files out, with the doctor that names them", async () => {
  await using kb = await makeKb();
  // A merge left conflict markers in an entry: the index leaves the file out, and search misses it.
  await Deno.writeTextFile(
    join(kb.dir, "entries", "kb-zz001-tune-the-xylophone.md"),
    "---\nid: kb-zz001\ntitle: Tune the xylophone\ntype: howto\n---\n<<<<<<< HEAD\nmine\n" +
      "=======\ntheirs\n>>>>>>> origin/main\n",
  );
  const result = await runCli(["search", "xylophone"], { env: kb.env });
  assertEquals(result.code, 0, show(result));
  assertEquals(result.stdout.trimEnd().split("\n"), [
    'No entries match "xylophone".',
    `1 file under entries/ left out of the index, not searched; why, and how to fix each: ` +
    `git-kb doctor --kb ${kb.dir}`,
  ]);
  const found = await runCli(["search", "idempotency"], { env: kb.env });
  assertEquals(found.code, 0, show(found));
  assert(!found.stdout.includes("left out"), "said only when nothing is found");
});

Deno.test("a search whose type or tag leaves every match out says so, with the search of any type and tag", async () => {
  await using kb = await makeKb();
  const result = await runCli(
    ["search", "rebase onto main", "--type", "bookmark", "--tag", "git"],
    {
      env: kb.env,
    },
  );
  assertEquals(result.code, 0, show(result));
  const [line, again] = result.stdout.trimEnd().split("\n");
  assertEquals(line, 'No entries of type bookmark tagged git match "rebase onto main".');
  assertEquals(again, `Of any type and tag: git-kb search 'rebase onto main'`);
  const any = await runCli(["search", "rebase onto main"], { env: kb.env });
  assertMatch(any.stdout, /^kb-r4b9t /, show(any));
});

Deno.test("a cache of the index version before is rebuilt, and then folds accents", async () => {
  await using kb = await makeKb();
  const warm = await runCli(["index"], { env: kb.env });
  assertEquals(warm.code, 0, show(warm));
  const manifests: string[] = [];
  for await (const path of walkManifests(cacheRootOf(kb.env))) manifests.push(path);
  assertEquals(manifests.length, 1, manifests.join(", "));
  const manifest = JSON.parse(await Deno.readTextFile(manifests[0]));
  manifest.version -= 1;
  await Deno.writeTextFile(manifests[0], JSON.stringify(manifest));
  const result = await runCli(["search", "idempoténcy", "--json"], { env: kb.env });
  assertEquals(result.code, 0, show(result));
  assertStrictEquals(parseJson<Hit[]>(result)[0]?.title, "Idempotency keys", show(result));
  const rebuilt = JSON.parse(await Deno.readTextFile(manifests[0]));
  assertEquals(rebuilt.version, manifest.version + 1, "the manifest was written again");
});

/** Every `manifest.json` under `root`. */
async function* walkManifests(root: string): AsyncGenerator<string> {
  for await (const item of Deno.readDir(root)) {
    const path = join(root, item.name);
    if (item.isDirectory) yield* walkManifests(path);
    else if (item.name === "manifest.json") yield path;
  }
}
