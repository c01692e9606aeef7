/**
 * The index notices changes made outside git-kb (an editor rewriting a file, `git pull`, a
 * deleted file, a deleted or corrupt cache) without a manual `git-kb index`, and `index`
 * reports whether it worked incrementally or rebuilt everything.
 */
import {
  assert,
  assertEquals,
  assertMatch,
  assertNotMatch,
  assertNotStrictEquals,
  assertStrictEquals,
} from "@std/assert";
import { join } from "@std/path/posix/join";
import { READ_TRUST_MS, SMALL_KB_TRUST_MS } from "../io/index/store.ts";
import { makeCold, YEARS_AGO } from "./big_kb.ts";
import {
  acceptKernel,
  cloneRemote,
  entryPath,
  entryText,
  FIXTURE_ENTRIES,
  git,
  kernelRulesOf,
  makeKb,
  parseJson,
  pushEntryFrom,
  runCli,
  type RunResult,
  show,
} from "./helpers.ts";

interface IndexReport {
  mode: "fresh" | "incremental" | "full";
  added: number;
  changed: number;
  removed: number;
  docCount: number;
  indexDir: string;
}

interface Hit {
  id: string;
  title: string;
}

function hitsOf(result: RunResult): Hit[] {
  assertEquals(result.code, 0, show(result));
  return parseJson<Hit[]>(result);
}

Deno.test("the index follows the knowledge base without a manual rebuild", async (t) => {
  await using kb = await makeKb({ remote: true });
  const env = kb.env;
  const index = async (...args: string[]) => {
    const result = await runCli(["index", "--json", ...args], { env });
    assertEquals(result.code, 0, show(result));
    return parseJson<IndexReport>(result);
  };
  const search = (...args: string[]) => runCli(["search", "--json", ...args], { env });
  /** Rewrite an entry in place, as an editor that truncates and writes the same file does. */
  const rewriteTitle = async (id: string, from: RegExp, to: string) => {
    const path = join(kb.dir, await entryPath(kb.dir, id));
    const text = await Deno.readTextFile(path);
    const changed = text.replace(from, to);
    assertNotStrictEquals(changed, text);
    await Deno.writeTextFile(path, changed);
    return { before: text, after: changed };
  };
  /** Make search and get distrust the index as they would once their trust window passed. */
  const ageVerification = async () => {
    const manifestPath = join((await index()).indexDir, "manifest.json");
    const manifest = JSON.parse(await Deno.readTextFile(manifestPath));
    manifest.verifiedAt -= READ_TRUST_MS + 1_000;
    await Deno.writeTextFile(manifestPath, JSON.stringify(manifest));
  };

  await t.step("first index is a full build; the next run finds nothing to do", async () => {
    const first = await index();
    assertEquals(first.mode, "full");
    assertEquals(first.docCount, FIXTURE_ENTRIES);
    const second = await index();
    assertEquals(second.mode, "fresh");
    assertEquals(second.docCount, FIXTURE_ENTRIES);
    const text = await runCli(["index"], { env });
    assertMatch(text.stdout, /already up to date/, show(text));
  });

  await t.step("an editor that saves by rename: search finds the new word at once", async () => {
    const path = join(kb.dir, await entryPath(kb.dir, "kb-b3m7o"));
    const text = await Deno.readTextFile(path);
    await Deno.writeTextFile(
      `${path}.swp`,
      text.replace(/^title: .*$/m, "title: BM25 for a zebrafish"),
    );
    await Deno.rename(`${path}.swp`, path);
    const hits = hitsOf(await search("zebrafish"));
    assertEquals(hits.map((hit) => hit.id), ["kb-b3m7o"]);
    assertEquals(hits[0].title, "BM25 for a zebrafish");
  });

  await t.step(
    "an in-place rewrite: index sees it at once, search once trust runs out",
    async () => {
      await makeCold(kb, "kb-b3m7o");
      await rewriteTitle("kb-b3m7o", /zebrafish/, "seahorse");
      assertEquals(hitsOf(await search("seahorse")), [], "inside the trust window");
      const report = await index();
      assertEquals(report.mode, "incremental");
      assertStrictEquals(hitsOf(await search("seahorse"))[0]?.id, "kb-b3m7o");
      await rewriteTitle("kb-b3m7o", /seahorse/, "quokka");
      await ageVerification();
      assertStrictEquals(hitsOf(await search("quokka"))[0]?.id, "kb-b3m7o");
    },
  );

  await t.step(
    "an in-place rewrite reaches the hooks' decision once their longer window runs out",
    async () => {
      const manifestPath = join((await index()).indexDir, "manifest.json");
      const age = async (ms: number) => {
        const manifest = JSON.parse(await Deno.readTextFile(manifestPath));
        manifest.verifiedAt = Date.now() - ms;
        await Deno.writeTextFile(manifestPath, JSON.stringify(manifest));
      };
      const context = async () => {
        const result = await runCli(["context", "how does the ocelot lantern work"], { env });
        assertEquals(result.code, 0, show(result));
        return result.stdout;
      };
      await makeCold(kb, "kb-b3m7o");
      const { before } = await rewriteTitle("kb-b3m7o", /^title: .*$/m, "title: Ocelot lantern");
      await age(READ_TRUST_MS + 1_000);
      assertNotMatch(await context(), /kb-b3m7o/, "inside the hooks' window");
      // The sample's 45 files are few enough to be checked a minute apart.
      await age(SMALL_KB_TRUST_MS + 1_000);
      assertMatch(await context(), /kb-b3m7o Ocelot lantern/);
      await Deno.writeTextFile(join(kb.dir, await entryPath(kb.dir, "kb-b3m7o")), before);
      await index();
    },
  );

  await t.step("a same-size rewrite is noticed too (mtime)", async () => {
    const { before, after } = await rewriteTitle(
      "kb-o2x9c",
      /^title: Semantic versioning$/m,
      "title: Platypus versioning",
    );
    assertEquals(after.length, before.length);
    await ageVerification();
    const hits = hitsOf(await search("platypus"));
    assertEquals(hits.map((hit) => hit.id), ["kb-o2x9c"]);
    assertEquals(hitsOf(await search("semantic")).filter((hit) => hit.id === "kb-o2x9c"), []);
  });

  await t.step(
    "index reports an incremental update, then fresh, and --full rebuilds",
    async () => {
      await rewriteTitle(
        "kb-z4h8p",
        /^title: .*$/m,
        "title: Exponential backoff with a capybara",
      );
      const incremental = await index();
      assertEquals(incremental.mode, "incremental");
      assertEquals(
        [incremental.added, incremental.changed, incremental.removed],
        [0, 1, 0],
      );
      assertEquals((await index()).mode, "fresh");
      const full = await index("--full");
      assertEquals(full.mode, "full");
      assertEquals(full.docCount, FIXTURE_ENTRIES);
      await rewriteTitle("kb-z4h8p", /capybara/, "wombat");
      const text = await runCli(["index"], { env });
      assertMatch(text.stdout, /incremental: 0 added, 1 changed, 0 removed/, show(text));
      const fullText = await runCli(["index", "--full"], { env });
      assertMatch(fullText.stdout, /\bfull\b/, show(fullText));
      assertStrictEquals(hitsOf(await search("wombat"))[0]?.id, "kb-z4h8p");
    },
  );

  await t.step("an entry added by git pull is found", async () => {
    const other = await cloneRemote(kb);
    await pushEntryFrom(
      other,
      "kb-pu11d",
      "Narwhal migration patterns",
      "Arrived by git pull.\n",
    );
    assertEquals(hitsOf(await search("narwhal")), []);
    await git(kb.dir, "pull", "--quiet", "--ff-only");
    const hits = hitsOf(await search("narwhal"));
    assertEquals(hits.map((hit) => hit.id), ["kb-pu11d"]);
    const get = await runCli(["get", "kb-pu11d"], { env });
    assertEquals(get.code, 0, show(get));
    assertMatch(get.stdout, /Arrived by git pull/);
  });

  await t.step("an entry changed by git pull is re-read", async () => {
    const other = join(kb.root, "other");
    const path = await entryPath(other, "kb-i8r2n");
    const text = await Deno.readTextFile(join(other, path));
    await Deno.writeTextFile(
      join(other, path),
      text.replace(/^title: .*$/m, "title: Idempotency keys for an axolotl"),
    );
    await git(other, "commit", "--quiet", "-am", "retitle kb-i8r2n");
    await git(other, "push", "--quiet", "origin", "HEAD:main");
    await git(kb.dir, "pull", "--quiet", "--ff-only");
    assertStrictEquals(hitsOf(await search("axolotl"))[0]?.id, "kb-i8r2n");
  });

  await t.step("a deleted file disappears from search and get", async () => {
    const path = await entryPath(kb.dir, "kb-j7t0e");
    const title = "Stripe API docs on idempotent requests";
    assert(hitsOf(await search(title)).some((hit) => hit.id === "kb-j7t0e"));
    await Deno.remove(join(kb.dir, path));
    assert(!hitsOf(await search(title)).some((hit) => hit.id === "kb-j7t0e"));
    const get = await runCli(["get", "kb-j7t0e"], { env });
    assertEquals(get.code, 1, show(get));
    assertMatch(get.stderr, /kb-j7t0e/);
    const report = await index();
    assertEquals(report.docCount, FIXTURE_ENTRIES + 1 - 1);
  });

  await t.step("a deleted or corrupt cache is rebuilt", async () => {
    const { indexDir } = await index();
    await Deno.writeTextFile(join(indexDir, "manifest.json"), '{"version": 1, "half');
    assertStrictEquals(hitsOf(await search("quokka"))[0]?.id, "kb-b3m7o");
    await Deno.remove(join(kb.tmp, "git-kb"), { recursive: true });
    assertStrictEquals(hitsOf(await search("narwhal"))[0]?.id, "kb-pu11d");
    const report = await index();
    assertEquals(report.mode, "fresh");
    assertEquals(report.docCount, FIXTURE_ENTRIES);
  });
});

Deno.test("the prompt hook sees at once an in-place edit of an entry being worked on or of a kernel rule, and a rename save in a sub-folder", async () => {
  await using kb = await makeKb();
  const env = kb.env;
  const context = async (prompt: string) => {
    const result = await runCli(["context", prompt], { env });
    assertEquals(result.code, 0, show(result));
    return result.stdout;
  };
  const entriesDir = join(kb.dir, "entries");
  for await (const item of Deno.readDir(entriesDir)) {
    await Deno.utime(join(entriesDir, item.name), YEARS_AGO, YEARS_AGO);
  }
  const worked = join(kb.dir, await entryPath(kb.dir, "kb-b3m7o"));
  const kernel = join(kb.dir, await entryPath(kb.dir, "kb-c0mw8"));
  await Deno.writeTextFile(worked, await Deno.readTextFile(worked));
  await Deno.mkdir(join(entriesDir, "ops"));
  const nested = join(entriesDir, "ops", "kb-sub01-nested.md");
  await Deno.writeTextFile(
    nested,
    entryText({ id: "kb-sub01", title: "Nested entry", body: "x\n" }),
  );
  const indexed = await runCli(["index"], { env });
  assertEquals(indexed.code, 0, show(indexed));
  const entriesMtime = (await Deno.stat(entriesDir)).mtime;
  assertNotMatch(await context("how does the ocelot lantern work"), /kb-b3m7o/);

  // In place, as VS Code or nano save: the folder's mtime does not move.
  const text = await Deno.readTextFile(worked);
  await Deno.writeTextFile(worked, text.replace(/^title: .*$/m, "title: Ocelot lantern"));
  assertMatch(await context("how does the ocelot lantern work"), /kb-b3m7o Ocelot lantern/);

  const rule = await Deno.readTextFile(kernel);
  await Deno.writeTextFile(kernel, rule.replace("The diff already shows", "Never quote a wombat;"));
  // A hand edit of a kernel rule waits for acceptance: the hook stops inlining it at once (it is
  // then an entry like any other, which a prompt may point at)...
  const commit = "write the commit message for this change";
  assertNotMatch(await context(commit), /### kb-c0mw8|wombat/);
  // ...and once accepted as it now reads, inlines the new text.
  await acceptKernel(kb.config, await kernelRulesOf(kb.dir));
  assertMatch(await context(commit), /Never quote a wombat/);

  // A new file in a sub-folder moves that folder's mtime only.
  await Deno.writeTextFile(
    join(entriesDir, "ops", "kb-sub02-capybara.md"),
    entryText({ id: "kb-sub02", title: "Capybara lantern rotation", body: "y\n" }),
  );
  assertEquals((await Deno.stat(entriesDir)).mtime, entriesMtime);
  assertMatch(await context("how do I do the capybara lantern rotation"), /kb-sub02/);
});
