/**
 * Twenty `git-kb add` processes at once must all land: one commit and one file each, a sound
 * repository, an index that has every one of them, and (with a remote) every commit pushed.
 */
import { assert, assertEquals, assertNotMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import {
  FIXTURE_ENTRIES,
  git,
  gitRun,
  type Kb,
  makeKb,
  parseJson,
  runCli,
  show,
} from "./helpers.ts";

const COUNT = 20;

interface SaveJson {
  id: string;
  path: string;
  commit: string;
  push: string;
}

async function addConcurrently(kb: Kb, label: string): Promise<SaveJson[]> {
  const results = await Promise.all(
    Array.from({ length: COUNT }, (_, index) =>
      runCli([
        "add",
        "--title",
        `Concurrent ${label} entry number ${index}`,
        "--type",
        "note",
        "--tag",
        `burst-${label}`,
        "--body",
        `Saved by process ${index} of ${COUNT}.`,
        "--json",
      ], { env: kb.env })),
  );
  const failed = results.filter((result) => result.code !== 0);
  assertEquals(failed.length, 0, failed.map(show).join("\n\n"));
  return results.map((result) => parseJson<SaveJson>(result));
}

async function assertAllLanded(kb: Kb, label: string, saved: SaveJson[], base: string) {
  const dir = kb.dir;
  assertEquals(new Set(saved.map((item) => item.id)).size, COUNT, "ids are unique");
  assertEquals(await git(dir, "rev-list", "--count", `${base}..HEAD`), String(COUNT));
  const subjects = (await git(dir, "log", "--format=%s", `${base}..HEAD`)).split("\n");
  for (const item of saved) {
    assertEquals(subjects.filter((subject) => subject.includes(item.id)).length, 1, item.id);
    await Deno.stat(join(dir, item.path));
    assertEquals(await git(dir, "ls-files", "--", item.path), item.path);
  }
  const files = [...Deno.readDirSync(join(dir, "entries"))].filter((file) =>
    file.name.endsWith(".md")
  );
  assertEquals(files.length, FIXTURE_ENTRIES + COUNT);
  assertEquals(await git(dir, "status", "--porcelain"), "");
  // No stray lock or temp files were left behind.
  assertEquals(
    [...Deno.readDirSync(join(dir, ".git"))].map((item) => item.name).filter((name) =>
      name.endsWith(".lock")
    ),
    [],
  );
  const fsck = await gitRun(dir, ["fsck", "--full", "--strict", "--no-dangling"]);
  assertEquals(fsck.code, 0, show(fsck));
  assertNotMatch(fsck.stdout + fsck.stderr, /error|missing|broken|corrupt/i, show(fsck));

  const [index, search] = await Promise.all([
    runCli(["index", "--json"], { env: kb.env }),
    runCli([
      "search",
      "concurrent entry number",
      "--tag",
      `burst-${label}`,
      "--json",
      "--limit",
      "100",
    ], {
      env: kb.env,
    }),
  ]);
  assertEquals(index.code, 0, show(index));
  assertEquals(parseJson<{ docCount: number }>(index).docCount, FIXTURE_ENTRIES + COUNT);
  assertEquals(search.code, 0, show(search));
  assertEquals(
    new Set(parseJson<{ id: string }[]>(search).map((hit) => hit.id)),
    new Set(saved.map((item) => item.id)),
  );
}

Deno.test(`${COUNT} concurrent adds, without and with a bare remote, all land`, async (t) => {
  // The two knowledge bases have separate locks, so both bursts run at the same time.
  const [localKb, pushedKb] = await Promise.all([makeKb(), makeKb({ remote: true })]);
  await using local = localKb;
  await using pushed = pushedKb;
  const [localBase, pushedBase] = await Promise.all([
    git(local.dir, "rev-parse", "HEAD"),
    git(pushed.dir, "rev-parse", "HEAD"),
  ]);
  const [localSaved, pushedSaved] = await Promise.all([
    addConcurrently(local, "local"),
    addConcurrently(pushed, "pushed"),
  ]);

  await t.step(
    `no remote: ${COUNT} commits, ${COUNT} files, fsck clean, all indexed`,
    async () => {
      assert(localSaved.every((item) => item.push === "NO_REMOTE"));
      await assertAllLanded(local, "local", localSaved, localBase);
    },
  );

  await t.step(`bare remote: the same, and all ${COUNT} commits pushed`, async () => {
    assert(
      pushedSaved.every((item) => item.push === "pushed" || item.push === "rebased-and-pushed"),
      JSON.stringify(pushedSaved.map((item) => item.push)),
    );
    await assertAllLanded(pushed, "pushed", pushedSaved, pushedBase);
    const remote = pushed.remote!;
    assertEquals(
      await git(remote, "rev-parse", "refs/heads/main"),
      await git(pushed.dir, "rev-parse", "HEAD"),
    );
    assertEquals(await git(remote, "rev-list", "--count", `${pushedBase}..main`), String(COUNT));
    const subjects = await git(remote, "log", "--format=%s", `${pushedBase}..main`);
    for (const item of pushedSaved) assert(subjects.includes(item.id), item.id);
    const fsck = await gitRun(remote, ["fsck", "--full", "--strict", "--no-dangling"]);
    assertEquals(fsck.code, 0, show(fsck));
  });
});
