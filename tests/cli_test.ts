/**
 * The CLI surface through real subprocesses: usage errors and help, search ranking and
 * filters, get, init and how the knowledge base is found, and colour.
 */
import {
  assert,
  assertEquals,
  assertMatch,
  assertNotMatch,
  assertNotStrictEquals,
  assertRejects,
  assertStrictEquals,
  assertStringIncludes,
} from "@std/assert";
import { join } from "@std/path/posix/join";
import { COMMAND_PROFILES } from "../app/permissions.ts";
import denoConfig from "../deno.json" with { type: "json" };
import {
  ANSI,
  entryPath,
  FIXTURE_ENTRIES,
  git,
  makeKb,
  makeSandbox,
  parseJson,
  runCli,
  type RunResult,
  sandboxEnv,
  show,
  STACK_FRAME,
} from "./helpers.ts";

interface Hit {
  id: string;
  title: string;
  type: string;
  status: string;
  score: number;
  tags: string[];
  links: { rel: string; direction: "out" | "in"; id: string; title?: string }[];
}

const COMMANDS = Object.keys(COMMAND_PROFILES);

function hits(result: RunResult): Hit[] {
  assertEquals(result.code, 0, show(result));
  return parseJson<Hit[]>(result);
}

function ids(result: RunResult): string[] {
  return hits(result).map((hit) => hit.id);
}

Deno.test("usage errors exit 2, --help exits 0 on every command, --version", async (t) => {
  await using sandbox = await makeSandbox();
  const env = { TMPDIR: sandbox.tmp, HOME: sandbox.home, NO_COLOR: "1" };
  const run = (...args: string[]) => runCli(args, { env });
  const [missingTitle, missingType, unknownFlag, unknownCommand, noQuery, badLimit, noId, bare] =
    await Promise.all([
      run("add", "--type", "note"),
      run("add", "--title", "No type"),
      run("search", "--bogus", "x"),
      run("frobnicate"),
      run("search"),
      run("search", "x", "--limit", "0"),
      run("edit"),
      run(),
    ]);
  const usage: [string, RunResult, RegExp][] = [
    ["add without --title", missingTitle, /--title/],
    ["add without --type", missingType, /--type/],
    ["an unknown flag", unknownFlag, /--bogus|bogus/],
    ["an unknown command", unknownCommand, /frobnicate/],
    ["search without a query", noQuery, /query/],
    ["search --limit 0", badLimit, /--limit/],
    ["edit without an id", noId, /id/],
  ];
  for (const [name, result, names] of usage) {
    await t.step(`${name} exits 2 and says what is wrong`, () => {
      assertEquals(result.code, 2, show(result));
      assertMatch(result.stderr, names, show(result));
      assertNotMatch(result.stderr, STACK_FRAME, show(result));
    });
  }
  await t.step("no command at all exits 2 with the usage", () => {
    assertEquals(bare.code, 2, show(bare));
    assertMatch(bare.stdout + bare.stderr, /Usage: git-kb/);
  });

  const helps = await Promise.all([
    ...COMMANDS.map((command) => run(command, "--help")),
    run("search", "-h"),
    run("--help"),
    run("--version"),
  ]);
  await t.step("--help on every command (and -h) exits 0 with its usage", () => {
    for (const [index, command] of [...COMMANDS, "search"].entries()) {
      const result = helps[index];
      assertEquals(result.code, 0, `${command}: ${show(result)}`);
      assertMatch(result.stdout, new RegExp(`Usage: git-kb ${command}\\b`), show(result));
      assertEquals(result.stderr, "", show(result));
    }
  });
  await t.step("git-kb --help lists every command", () => {
    const result = helps[COMMANDS.length + 1];
    assertEquals(result.code, 0, show(result));
    for (const command of COMMANDS) assertMatch(result.stdout, new RegExp(`\\n  ${command}\\b`));
  });
  await t.step("--version prints the version from deno.json", () => {
    const result = helps[COMMANDS.length + 2];
    assertEquals(result.code, 0, show(result));
    assertEquals(result.stdout.trim(), `git-kb ${denoConfig.version}`);
  });
});

Deno.test("search and get on the sample knowledge base", async (t) => {
  await using kb = await makeKb();
  const warm = await runCli(["index"], { env: kb.env });
  assertEquals(warm.code, 0, show(warm));
  const search = (...args: string[]) => runCli(["search", ...args], { env: kb.env });
  const get = (...args: string[]) => runCli(["get", ...args], { env: kb.env });
  const file = async (id: string) =>
    await Deno.readTextFile(join(kb.dir, await entryPath(kb.dir, id)));
  const runs = {
    rebase: search("rebase", "--json"),
    postgres: search("postgres", "--json", "--limit", "50"),
    migration: search("migration", "--json", "--limit", "50"),
    fused: search("postgres", "migration", "--json", "--limit", "50"),
    rotate: search("rotate leaked token", "--json"),
    exposure: search("march token exposure", "--json", "--limit", "50"),
    exposureText: search("march token exposure", "--limit", "50"),
    token: search("token", "--json", "--limit", "50"),
    tokenText: search("token"),
    howto: search("token", "--type", "howto", "--json", "--limit", "50"),
    tagged: search("token", "--tag", "ci", "--json", "--limit", "50"),
    limited: search("token", "--limit", "2", "--json"),
    nothing: search("xylophonequartz"),
    badType: search("token", "--type", "recipe"),
    getOne: get("kb-7q2mx"),
    getMany: get("kb-7q2mx", "kb-3hd8w", "kb-r4b9t"),
    getMissing: get("kb-7q2mx", "kb-nope1", "kb-r4b9t"),
    getLinks: get("kb-7q2mx", "kb-3hd8w", "--links"),
    getNoLinks: get("kb-e6p1z", "--links"),
    getNoPrefix: get("7q2mx"),
    getMistyped: get("kb-7q2nx"),
    getJson: get("kb-7q2mx", "kb-3hd8w", "--json"),
    getTraversal: get("../../../etc/passwd"),
    alias: search("cf", "--json"),
    unknownField: search("alice", "--json"),
  };
  const results = Object.fromEntries(
    await Promise.all(Object.entries(runs).map(async ([name, run]) => [name, await run])),
  ) as Record<keyof typeof runs, RunResult>;

  await t.step("a title match ranks above a body-only match", () => {
    const found = hits(results.rebase);
    const titled = found.findIndex((hit) => hit.id === "kb-r4b9t");
    const bodyOnly = found.findIndex((hit) => hit.id === "kb-w9f4j");
    assert(titled >= 0 && bodyOnly >= 0, show(results.rebase));
    assertMatch(found[titled].title, /rebase/i);
    assertNotMatch(found[bodyOnly].title, /rebase/i);
    assert(titled < bodyOnly, `kb-r4b9t (${titled}) must rank above kb-w9f4j (${bodyOnly})`);
    assertEquals(found[0].id, "kb-r4b9t");
  });

  await t.step("several queries are fused: entries matching both rank first", () => {
    const postgres = ids(results.postgres);
    const migration = ids(results.migration);
    const fused = ids(results.fused);
    const both = new Set(postgres.filter((id) => migration.includes(id)));
    assert(both.size >= 2, "the fixture needs entries matching both queries");
    assertEquals(fused[0], "kb-p8k2c");
    assertNotStrictEquals(postgres[0], "kb-p8k2c", "fusion, not one query alone, puts it first");
    assertNotStrictEquals(migration[0], "kb-p8k2c", "fusion, not one query alone, puts it first");
    const lastBoth = Math.max(...[...both].map((id) => fused.indexOf(id)));
    const firstSingle = fused.findIndex((id) => !both.has(id));
    assert(lastBoth < firstSingle, `entries matching both come first: ${fused.join(" ")}`);
    assertEquals(new Set(fused), new Set([...postgres, ...migration]));
  });

  await t.step("link traversal shows outgoing and incoming links with the rel", () => {
    const rotate = hits(results.rotate).find((hit) => hit.id === "kb-7q2mx");
    assert(rotate, show(results.rotate));
    assertEquals(
      rotate.links.find((link) => link.id === "kb-3hd8w"),
      {
        rel: "supersedes",
        direction: "out",
        id: "kb-3hd8w",
        title: "Notes from the March token exposure",
      },
    );
    const old = hits(results.exposure).find((hit) => hit.id === "kb-3hd8w");
    assert(old, show(results.exposure));
    assertEquals(
      old.links.find((link) => link.id === "kb-7q2mx"),
      {
        rel: "superseded-by",
        direction: "in",
        id: "kb-7q2mx",
        title: "Rotate a leaked npm or Cloudflare token",
      },
    );
    const text = results.tokenText;
    assertEquals(text.code, 0, show(text));
    assertMatch(text.stdout, /→ supersedes kb-3hd8w Notes from the March token exposure/);
    assertMatch(text.stdout, /← superseded-by kb-7q2mx Rotate a leaked npm or Cloudflare token/);
  });

  await t.step("a superseded entry ranks below active ones and says so", () => {
    const found = hits(results.exposure);
    const index = found.findIndex((hit) => hit.id === "kb-3hd8w");
    assert(index > 0, show(results.exposure));
    assertEquals(found[index].status, "superseded");
    assert(
      found.slice(0, index).every((hit) => hit.status === "active"),
      "every hit above it is active",
    );
    // Its own score is the best (exact title match): only the status pushes it down.
    assert(found[index].score > found[0].score, "demoted by status, not by score");
    const line = results.exposureText.stdout.split("\n").find((row) => row.startsWith("kb-3hd8w"));
    assert(line, show(results.exposureText));
    assertMatch(line, /superseded/);
  });

  await t.step("--type keeps only that type", () => {
    const all = hits(results.token);
    const howtos = hits(results.howto);
    assert(howtos.length > 0);
    assert(howtos.every((hit) => hit.type === "howto"), JSON.stringify(howtos));
    assert(all.some((hit) => hit.type !== "howto"), "the filter must remove something");
    assertEquals(
      howtos.map((hit) => hit.id),
      all.filter((hit) => hit.type === "howto").map((hit) => hit.id),
    );
    assertEquals(results.badType.code, 2, show(results.badType));
  });

  await t.step("--tag keeps only entries with that tag or a tag under it", () => {
    const all = hits(results.token);
    const tagged = hits(results.tagged);
    assert(tagged.some((hit) => hit.id === "kb-7q2mx"), "ci keeps ci/cd");
    assert(
      tagged.every((hit) => hit.tags.some((tag) => tag === "ci" || tag.startsWith("ci/"))),
      JSON.stringify(tagged),
    );
    assert(tagged.length < all.length, "the filter must remove something");
  });

  await t.step("--limit cuts the ranking", () => {
    const limited = ids(results.limited);
    assertEquals(limited.length, 2);
    assertEquals(limited, ids(results.token).slice(0, 2));
  });

  await t.step("no match: exit 0 and a plain message", () => {
    assertEquals(results.nothing.code, 0, show(results.nothing));
    assertMatch(results.nothing.stdout, /No entries match "xylophonequartz"/);
  });

  await t.step("get prints one entry byte for byte", async () => {
    assertEquals(results.getOne.code, 0, show(results.getOne));
    assertEquals(results.getOne.stdout, await file("kb-7q2mx"));
  });

  await t.step("get prints several entries verbatim, in order", async () => {
    const result = results.getMany;
    assertEquals(result.code, 0, show(result));
    let from = 0;
    for (const id of ["kb-7q2mx", "kb-3hd8w", "kb-r4b9t"]) {
      const at = result.stdout.indexOf(await file(id), from);
      assert(at >= from, `${id} verbatim, after the previous one`);
      from = at + 1;
    }
  });

  await t.step("get with an unknown id: names it, exit 1, the others still printed", async () => {
    const result = results.getMissing;
    assertEquals(result.code, 1, show(result));
    assertMatch(result.stderr, /kb-nope1/);
    assertNotMatch(result.stderr, STACK_FRAME);
    assert(result.stdout.includes(await file("kb-7q2mx")), show(result));
    assert(result.stdout.includes(await file("kb-r4b9t")), show(result));
  });

  await t.step("get --links lists the neighbours' titles in both directions", async () => {
    const result = results.getLinks;
    assertEquals(result.code, 0, show(result));
    assert(result.stdout.startsWith(await file("kb-7q2mx")));
    assertMatch(result.stdout, /supersedes kb-3hd8w Notes from the March token exposure/);
    assertMatch(result.stdout, /related kb-f8z2t GitHub Actions security hardening guide/);
    assertMatch(
      result.stdout,
      /superseded-by kb-7q2mx Rotate a leaked npm or Cloudflare token/,
    );
  });

  await t.step("get --links of an entry with none says so, after the entry", async () => {
    const result = results.getNoLinks;
    assertEquals(result.code, 0, show(result));
    assertEquals(result.stdout, `${await file("kb-e6p1z")}No links to or from kb-e6p1z.\n`);
  });

  await t.step("get --json carries the exact text", async () => {
    const items = parseJson<{ id: string; text: string }[]>(results.getJson);
    assertEquals(items.map((item) => item.id), ["kb-7q2mx", "kb-3hd8w"]);
    assertEquals(items[0].text, await file("kb-7q2mx"));
    assertEquals(items[1].text, await file("kb-3hd8w"));
  });

  await t.step("get of an id typed without its kb- says so, with the get of the id", () => {
    const result = results.getNoPrefix;
    assertEquals(result.code, 1, show(result));
    assertEquals(
      result.stderr.trim(),
      "git-kb get: no entry 7q2mx; ids start with kb-: git-kb get kb-7q2mx",
    );
  });

  await t.step("get of an id one character off an entry's asks whether that one was meant", () => {
    const result = results.getMistyped;
    assertEquals(result.code, 1, show(result));
    assertEquals(
      result.stderr.trim(),
      "git-kb get: no entry kb-7q2nx; did you mean kb-7q2mx? git-kb get kb-7q2mx",
    );
  });

  await t.step("get never turns an argument into a path", () => {
    const result = results.getTraversal;
    assertEquals(result.code, 1, show(result));
    assertEquals(result.stdout, "");
    assertMatch(result.stderr, /no entry/);
  });

  await t.step("aliases are keywords; unknown fields are not indexed", () => {
    assertEquals(ids(results.alias)[0], "kb-7q2mx", "cf is an alias of kb-7q2mx");
    assert(!ids(results.unknownField).includes("kb-4fr7e"), "reviewed_by: alice");
  });

  await t.step("read commands leave the repo untouched", async () => {
    assertEquals(await git(kb.dir, "status", "--porcelain", "--ignored"), "");
  });
});

Deno.test("colour: none with NO_COLOR unset when output is piped", async () => {
  await using kb = await makeKb();
  const { NO_COLOR: _, ...env } = kb.env;
  const results = await Promise.all([
    runCli(["search", "token"], { env }),
    runCli(["get", "kb-7q2mx", "kb-nope1", "--links"], { env }),
    runCli(["search", "--bogus"], { env }),
    runCli(["index"], { env }),
    runCli(["add", "--title", "Plain output", "--type", "note"], { env }),
    runCli(["add", "--title", "Bad", "--type", "recipe"], { env }),
  ]);
  assertEquals(results[0].code, 0, show(results[0]));
  assertMatch(results[0].stdout, /kb-7q2mx/);
  assertEquals(results[4].code, 0, show(results[4]));
  for (const result of results) {
    assertNotMatch(result.stdout, ANSI, show(result));
    assertNotMatch(result.stderr, ANSI, show(result));
  }
});

Deno.test("init: clone a bare repo, adopt a clone, create a new repo; where config goes", async (t) => {
  await using source = await makeKb({ remote: true });
  await using sandbox = await makeSandbox();
  const env = sandboxEnv(sandbox);
  const xdgConfig = join(sandbox.config, "git-kb", "config.json");
  const pluginData = join(sandbox.root, "plugin-data");
  const cloned = join(sandbox.root, "cloned");
  const created = join(sandbox.root, "does", "not", "exist");
  const emptyDir = join(sandbox.root, "empty");
  const notRepo = join(sandbox.root, "not-a-repo");
  await Deno.mkdir(emptyDir);
  await Deno.mkdir(notRepo);
  await Deno.writeTextFile(join(notRepo, "notes.txt"), "mine\n");
  const sourceHead = await git(source.dir, "rev-parse", "HEAD");

  await t.step("from a bare repo path: clones, writes the XDG config, indexes", async () => {
    const result = await runCli(["init", source.remote!, "--dir", cloned, "--json"], { env });
    assertEquals(result.code, 0, show(result));
    const report = parseJson<Record<string, unknown>>(result);
    assertEquals(report.mode, "cloned");
    assertEquals(report.kbDir, cloned);
    assertEquals(report.configFile, xdgConfig);
    assertEquals(report.entries, FIXTURE_ENTRIES);
    assertEquals(JSON.parse(await Deno.readTextFile(xdgConfig)), {
      kbs: [{ name: "cloned", dir: cloned }],
      default: "cloned",
    });
    assertEquals(await git(cloned, "remote", "get-url", "origin"), source.remote);
    assertEquals(await git(cloned, "rev-parse", "HEAD"), sourceHead);
    // With no flag and no KB_DIR, commands now find the clone through the config.
    const search = await runCli(["search", "rebase", "--json"], { env });
    assertStrictEquals(parseJson<Hit[]>(search)[0]?.id, "kb-r4b9t", show(search));
  });

  await t.step("the same URL again with --dir at its clone: adopted, not refused", async () => {
    const again = await runCli(["init", source.remote!, "--dir", cloned, "--json"], { env });
    assertEquals(again.code, 0, show(again));
    assertEquals(parseJson<Record<string, unknown>>(again).mode, "existing");
  });

  await t.step("a mistyped repo path is refused, nothing created", async () => {
    const typo = join(sandbox.root, "remote-typo.git");
    const target = join(sandbox.root, "typo-clone");
    for (const args of [[typo], [join(sandbox.root, "typo"), "--dir", target]]) {
      const result = await runCli(["init", ...args], { env });
      assertEquals(result.code, 2, show(result));
      assertMatch(result.stderr, /does not exist, so there is nothing to clone/);
    }
    for (const path of [typo, target, join(sandbox.root, "typo")]) {
      await assertRejects(() => Deno.stat(path), Deno.errors.NotFound);
    }
    // A character off the bare repo beside it: that one is named, with the init that clones it.
    const near = source.remote!.replace(/remote\.git$/, "remot.git");
    const result = await runCli(["init", near], { env });
    assertEquals(result.code, 2, show(result));
    assertStringIncludes(
      result.stderr,
      `${near} does not exist, so there is nothing to clone; did you mean ${source.remote}? ` +
        `git-kb init ${source.remote}. Else check the path`,
    );
    await assertRejects(() => Deno.stat(near), Deno.errors.NotFound);
  });

  await t.step("from an existing clone, with CLAUDE_PLUGIN_DATA set", async () => {
    const result = await runCli(["init", source.dir], {
      env: { ...env, CLAUDE_PLUGIN_DATA: pluginData },
    });
    assertEquals(result.code, 0, show(result));
    assertMatch(result.stdout, /existing clone/);
    const pluginConfig = join(pluginData, "config.json");
    assert(result.stdout.includes(pluginConfig), "init says where it wrote the config");
    assertMatch(result.stdout, new RegExp(`${FIXTURE_ENTRIES} entries`));
    assertEquals(JSON.parse(await Deno.readTextFile(pluginConfig)), {
      kbs: [{ name: "kb", dir: source.dir }],
      default: "kb",
    });
    assertEquals(
      JSON.parse(await Deno.readTextFile(xdgConfig)),
      { kbs: [{ name: "cloned", dir: cloned }], default: "cloned" },
      "the XDG config is not touched when CLAUDE_PLUGIN_DATA is set",
    );
    assertEquals(await git(source.dir, "rev-parse", "HEAD"), sourceHead, "nothing committed");
    assertEquals(await git(source.dir, "status", "--porcelain"), "");
  });

  await t.step("a new repo in a nonexistent and in an empty folder", async () => {
    const local = { ...env, XDG_CONFIG_HOME: join(sandbox.root, "xdg-new") };
    const [fresh, empty] = await Promise.all([
      runCli(["init", created, "--json"], { env: local }),
      runCli(["init", emptyDir, "--json", "--force"], {
        env: { ...local, CLAUDE_PLUGIN_DATA: pluginData },
      }),
    ]);
    for (const [dir, result] of [[created, fresh], [emptyDir, empty]] as const) {
      assertEquals(result.code, 0, show(result));
      const report = parseJson<Record<string, unknown>>(result);
      assertEquals(report.mode, "created");
      assertEquals(report.entries, 0);
      const files = (await git(dir, "ls-files")).split("\n").sort();
      assert(files.includes("README.md"), files.join(","));
      assert(files.some((file) => file.startsWith("entries/")), files.join(","));
      assertEquals(await git(dir, "rev-list", "--count", "HEAD"), "1");
      assertEquals(await git(dir, "status", "--porcelain"), "");
      assert((await Deno.stat(join(dir, "entries"))).isDirectory);
    }
    // A new repo works with the rest of the tool right away.
    const add = await runCli(["add", "--title", "First entry", "--type", "note"], {
      env: { ...local, ...source.env, KB_DIR: created, TMPDIR: sandbox.tmp },
    });
    assertEquals(add.code, 0, show(add));
    assertEquals(await git(created, "rev-list", "--count", "HEAD"), "2");
  });

  await t.step("a folder that is neither a repo nor empty is refused", async () => {
    const result = await runCli(["init", notRepo], { env });
    assertEquals(result.code, 1, show(result));
    assert(result.stderr.includes(notRepo), show(result));
    assertEquals([...Deno.readDirSync(notRepo)].map((item) => item.name), ["notes.txt"]);
  });
});

Deno.test("which knowledge base: --kb over KB_DIR over plugin config over XDG config", async (t) => {
  await using sandbox = await makeSandbox();
  const kbs: Record<string, string> = {};
  for (const name of ["flag", "env", "plugin", "xdg"]) {
    kbs[name] = join(sandbox.root, `kb-${name}`);
    await Deno.mkdir(join(kbs[name], "entries"), { recursive: true });
  }
  const pluginData = join(sandbox.root, "plugin-data");
  await Deno.mkdir(join(sandbox.config, "git-kb"), { recursive: true });
  await Deno.mkdir(pluginData);
  await Deno.writeTextFile(
    join(sandbox.config, "git-kb", "config.json"),
    JSON.stringify({ kbDir: kbs.xdg }),
  );
  await Deno.writeTextFile(
    join(pluginData, "config.json"),
    JSON.stringify({ kbDir: kbs.plugin }),
  );
  const base = { TMPDIR: sandbox.tmp, HOME: sandbox.home, NO_COLOR: "1" };
  const xdg = { ...base, XDG_CONFIG_HOME: sandbox.config };
  const plugin = { ...xdg, CLAUDE_PLUGIN_DATA: pluginData };
  const withEnv = { ...plugin, KB_DIR: kbs.env };
  const kbDirOf = (result: RunResult) => parseJson<{ kbDir: string }>(result).kbDir;
  const [fromXdg, fromPlugin, fromEnv, fromFlag, none] = await Promise.all([
    runCli(["index", "--json"], { env: xdg }),
    runCli(["index", "--json"], { env: plugin }),
    runCli(["index", "--json"], { env: withEnv }),
    runCli(["index", "--json", "--kb", kbs.flag], { env: withEnv }),
    runCli(["search", "anything"], { env: base }),
  ]);
  await t.step("the XDG config file", () => assertEquals(kbDirOf(fromXdg), kbs.xdg));
  await t.step("$CLAUDE_PLUGIN_DATA/config.json over XDG", () => {
    assertEquals(kbDirOf(fromPlugin), kbs.plugin);
  });
  await t.step("KB_DIR over config files", () => assertEquals(kbDirOf(fromEnv), kbs.env));
  await t.step("--kb over KB_DIR", () => assertEquals(kbDirOf(fromFlag), kbs.flag));
  await t.step("nothing configured: one clear line naming git-kb init, exit 1", () => {
    assertEquals(none.code, 1, show(none));
    assertMatch(none.stderr, /git-kb init/);
    assertEquals(none.stderr.trim().split("\n").length, 1, show(none));
    assertNotMatch(none.stderr, STACK_FRAME);
    assertEquals(none.stdout, "");
  });
});
