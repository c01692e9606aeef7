/**
 * The cache is the user's alone, checked for real: the CLI and the prompt hook run as
 * subprocesses with their profiles' permissions against a cache root that another user (uid
 * 65534, by `chown`; the tests run as root, and git-kb compares owners with `Deno.uid()`) made
 * or planted links in. Every planted folder or file is left as it was; a command says why in one
 * line and exits 1, a hook says nothing and exits 0.
 */
import { assert, assertEquals, assertMatch, assertNotMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { contentHash } from "../core/hash.ts";
import { shellQuote } from "../core/shell/quote.ts";
import { sessionFile } from "../io/hook/session.ts";
import { runProcess } from "../io/process.ts";
import {
  cacheRootOf,
  copySampleKb,
  denoChildEnv,
  entryText,
  lockFolder,
  MAIN,
  makeSandbox,
  parseJson,
  ROOT,
  runCli,
  runHook,
  type RunResult,
  show,
  snapshot,
  STACK_FRAME,
} from "./helpers.ts";

const OTHER_UID = 65534;

/** A sandbox with a copy of the sample knowledge base and a folder of "another user's". */
async function makeBox() {
  const sandbox = await makeSandbox("git-kb-private-");
  const kb = join(sandbox.root, "kb");
  const victim = join(sandbox.root, "victim");
  await copySampleKb(kb);
  await Deno.mkdir(victim);
  await Deno.writeTextFile(join(victim, "id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY-----\n");
  await chownTree(victim);
  /** No HOME, no XDG_CACHE_HOME: the cache root is `git-kb-<uid>` in the shared TMPDIR. */
  const env = { TMPDIR: sandbox.tmp, XDG_CACHE_HOME: "", KB_DIR: kb, NO_COLOR: "1" };
  const root = join(sandbox.tmp, `git-kb-${Deno.uid()}`);
  const cacheDir = join(root, `kb-${contentHash(kb).slice(0, 10)}`);
  const payload = await Deno.readTextFile(join(ROOT, "fixtures", "hooks", "prompt-match.json"));
  const hook = (extra: Record<string, string> = {}, stdin = payload) =>
    runHook(stdin, { env: { ...env, ...extra }, cwd: sandbox.root });
  return { ...sandbox, kb, victim, env, root, cacheDir, payload, hook };
}

async function chownTree(path: string): Promise<void> {
  const result = await new Deno.Command("chown", { args: ["-R", `${OTHER_UID}`, path] }).output();
  assertEquals(result.code, 0, `chown ${path}`);
}

function mode(path: string): number {
  return Deno.lstatSync(path).mode! & 0o777;
}

/** Exit 1 and one line on stderr matching `reason`, no stack trace, nothing on stdout. */
function assertRefused(result: RunResult, reason: RegExp): void {
  assertEquals(result.code, 1, show(result));
  assertEquals(result.stdout, "", show(result));
  assertEquals(result.stderr.trim().split("\n").length, 1, show(result));
  assertMatch(result.stderr, reason, show(result));
  assertNotMatch(result.stderr, STACK_FRAME, show(result));
}

/** Exit 0 with nothing on stdout or stderr: a hook fails open, silently. */
function assertSilent(result: RunResult): void {
  assertEquals(result.code, 0, show(result));
  assertEquals(result.stdout, "", show(result));
  assertEquals(result.stderr, "", show(result));
}

Deno.test("a fresh cache: ~/.cache/git-kb by default, made 0700, session files 0600", async () => {
  await using box = await makeBox();
  const env = { ...box.env, HOME: box.home, KB_HOOK_DEBUG: "1" };
  const root = join(box.home, ".cache", "git-kb");
  assertEquals(cacheRootOf(env), root);
  const hook = await box.hook({ HOME: box.home, KB_HOOK_DEBUG: "1" });
  assertEquals(hook.code, 0, show(hook));
  assertMatch(hook.stdout, /kb-7q2mx/, "the hook works from the new cache");
  assertEquals(mode(root), 0o700);
  const cacheDir = join(root, `kb-${contentHash(box.kb).slice(0, 10)}`);
  const sessionId = JSON.parse(box.payload).session_id;
  for (const file of [sessionFile(cacheDir, sessionId), join(cacheDir, "debug.jsonl")]) {
    assertEquals(mode(file), 0o600, file);
  }
  assertEquals(mode(join(cacheDir, "sessions")), 0o700);
  assertEquals([...Deno.readDirSync(box.tmp)], [], "nothing in the temp dir");
});

/** Each folder and file under `dir` (itself included), not following links. */
function walk(dir: string): string[] {
  return [
    dir,
    ...[...Deno.readDirSync(dir)].flatMap((item) => {
      const path = join(dir, item.name);
      return item.isDirectory ? walk(path) : [path];
    }),
  ];
}

Deno.test("search on a fresh HOME: every folder under the cache root is 0700, every file 0600", async () => {
  await using box = await makeBox();
  const env = { ...box.env, HOME: box.home };
  const search = await runCli(["search", "rotate leaked token"], { env });
  assertEquals(search.code, 0, show(search));
  const paths = walk(join(box.home, ".cache", "git-kb"));
  assert(paths.some((path) => path.endsWith("manifest.json")), paths.join("\n"));
  for (const path of paths) {
    const info = Deno.lstatSync(path);
    assert(info.isDirectory || info.isFile, `${path} is a folder or a file`);
    assertEquals(mode(path).toString(8), info.isDirectory ? "700" : "600", path);
  }
});

Deno.test("without HOME, the cache is git-kb-<uid> in the temp dir, made 0700", async () => {
  await using box = await makeBox();
  const search = await runCli(["search", "rotate leaked token", "--json"], { env: box.env });
  assertEquals(search.code, 0, show(search));
  assertEquals(JSON.parse(search.stdout)[0].id, "kb-7q2mx");
  assertEquals([...Deno.readDirSync(box.tmp)].map((item) => item.name), [
    `git-kb-${Deno.uid()}`,
  ]);
  assertEquals(mode(box.root), 0o700);
});

Deno.test("a cache root another user made is refused: nothing read from it, nothing written", async () => {
  await using box = await makeBox();
  // The planted cache: a built index of the same knowledge base, then handed to uid 65534.
  const built = await runCli(["index"], { env: { ...box.env, XDG_CACHE_HOME: box.tmp } });
  assertEquals(built.code, 0, show(built));
  await Deno.rename(join(box.tmp, "git-kb"), box.root);
  await chownTree(box.root);
  await Deno.chmod(box.root, 0o755);
  const before = await snapshot(box.root);

  assertRefused(
    await runCli(["search", "rotate leaked token"], { env: box.env }),
    new RegExp(`git-kb search: .*${box.root}.* belongs to uid ${OTHER_UID}, not to you`),
  );
  assertRefused(await runCli(["get", "kb-7q2mx"], { env: box.env }), /belongs to uid 65534/);
  assertSilent(await box.hook());
  assertSilent(await box.hook({ KB_HOOK_DEBUG: "1" }));
  assertEquals(await snapshot(box.root), before, "the planted cache is as it was");
  assertEquals(Deno.lstatSync(box.root).uid, OTHER_UID);
});

Deno.test("a cache root that is a link to another user's folder is refused", async () => {
  await using box = await makeBox();
  await Deno.symlink(box.victim, box.root);
  const before = await snapshot(box.victim);
  assertRefused(
    await runCli(["index"], { env: box.env }),
    /is a symbolic link, not a folder: .*Remove it \(rm /,
  );
  assertSilent(await box.hook({ KB_HOOK_DEBUG: "1" }));
  assertEquals(await snapshot(box.victim), before);
});

Deno.test("a cache root that is another user's link: the refusal and doctor print a line that works pasted, no rm of theirs", async () => {
  await using box = await makeBox();
  await Deno.symlink(box.victim, box.root);
  // Another user's link in a sticky temp dir is not the user's to remove: rm would fail.
  const owned = await new Deno.Command("chown", { args: ["-h", `${OTHER_UID}`, box.root] })
    .output();
  assertEquals(owned.code, 0, "chown -h");
  const refused = await runCli(["index"], { env: box.env });
  assertRefused(refused, /symbolic link\) belongs to uid 65534, not to you/);
  assertNotMatch(refused.stderr, /\brm\b/);
  const doctor = await runCli(["doctor", "--offline"], { env: box.env });
  const finding = doctor.stdout.split("\n").find((line) => line.includes(box.root)) ?? "";
  assertMatch(finding, /a symbolic link \(to .*\), and uid 65534's, not yours/, show(doctor));
  assertNotMatch(finding, /\brm\b/);
  for (const output of [refused.stderr, finding]) {
    const line = output.trim().match(/for this shell, a new (?:private )?one: (.*)$/)?.[1];
    assert(line, output);
    const cli = `deno run -A ${shellQuote(MAIN)} index`;
    const pasted = await runProcess("/bin/sh", ["-c", `${line} && ${cli}`], {
      env: await denoChildEnv(box.env),
    });
    assertEquals(pasted.code, 0, `${line}\n${pasted.stderr}`);
  }
  assertEquals(Deno.lstatSync(box.root).uid, OTHER_UID, "their link is left alone");
});

Deno.test("another user's folder in the cache (a sudo git-kb leaves root's): doctor prints no rm -r, which could not delete its files, but a line that works pasted", async () => {
  await using box = await makeBox();
  const built = await runCli(["index"], { env: box.env });
  assertEquals(built.code, 0, show(built));
  const theirs = join(box.cacheDir, "index");
  await chownTree(theirs);
  const doctor = await runCli(["doctor", "--offline"], { env: box.env });
  const finding = doctor.stdout.split("\n").find((line) => line.includes(theirs)) ?? "";
  assertMatch(finding, /a folder of uid 65534's, not yours/, show(doctor));
  assertNotMatch(finding, /\brm\b/);
  const line = finding.trim().match(/for this shell, a new one: (.*)$/)?.[1];
  assert(line, finding);
  const cli = `deno run -A ${shellQuote(MAIN)} index`;
  const pasted = await runProcess("/bin/sh", ["-c", `${line} && ${cli}`], {
    env: await denoChildEnv(box.env),
  });
  assertEquals(pasted.code, 0, `${line}\n${pasted.stderr}`);
  assertEquals(Deno.lstatSync(theirs).uid, OTHER_UID, "their folder is left alone");
});

Deno.test("a cache root of ours that others could write is narrowed to 0700 and used", async () => {
  await using box = await makeBox();
  await Deno.mkdir(box.root);
  await Deno.chmod(box.root, 0o777);
  const search = await runCli(["search", "rotate leaked token", "--json"], { env: box.env });
  assertEquals(search.code, 0, show(search));
  assertEquals(mode(box.root), 0o700);
});

Deno.test("sessions -> another user's folder: the hook's sweep deletes nothing there", async () => {
  await using box = await makeBox();
  // A first run makes the cache; then the sessions folder is swapped for a link.
  assertEquals((await box.hook()).code, 0);
  await Deno.remove(join(box.cacheDir, "sessions"), { recursive: true });
  await Deno.remove(join(box.cacheDir, "sessions.swept")).catch(() => {});
  const old = new Date(Date.now() - 30 * 24 * 60 * 60 * 1000);
  for (const item of Deno.readDirSync(box.victim)) {
    Deno.utimeSync(join(box.victim, item.name), old, old);
  }
  await Deno.symlink(box.victim, join(box.cacheDir, "sessions"));
  const before = await snapshot(box.victim);
  const fresh = JSON.stringify({ ...JSON.parse(box.payload), session_id: "a-new-session" });
  const result = await box.hook({}, fresh);
  assertEquals(result.code, 0, show(result));
  assertEquals(await snapshot(box.victim), before, "the victim's files are all there");
});

Deno.test("the ledger, the unmatched log and the debug log are never written through a link", async () => {
  await using box = await makeBox();
  assertEquals((await box.hook()).code, 0);
  const secret = join(box.victim, "id_ed25519");
  const sessionId = JSON.parse(box.payload).session_id;
  const links = [
    sessionFile(box.cacheDir, sessionId),
    sessionFile(box.cacheDir, "quiet", ".unmatched.jsonl"),
    join(box.cacheDir, "debug.jsonl"),
  ];
  for (const link of links) {
    await Deno.remove(link).catch(() => {});
    await Deno.symlink(secret, link);
  }
  const before = await snapshot(box.victim);
  const quiet = JSON.stringify({
    ...JSON.parse(box.payload),
    session_id: "quiet",
    prompt: "zebra quokka marmalade xylophone",
  });
  const results = [
    await box.hook({ KB_HOOK_DEBUG: "1" }),
    await box.hook({ KB_HOOK_DEBUG: "1" }, quiet),
  ];
  for (const result of results) assertEquals(result.code, 0, show(result));
  assertEquals(await snapshot(box.victim), before, "the victim's file is unchanged");
  for (const link of links) assert(Deno.lstatSync(link).isSymlink, link);
});

Deno.test("the knowledge base's cache folder as a link elsewhere is refused: nothing read or written there", async () => {
  await using box = await makeBox();
  // A first run makes the cache; then the knowledge base's folder in it is swapped for a link to a
  // copy of itself in another user's folder.
  assertEquals((await box.hook()).code, 0);
  const elsewhere = join(box.victim, "cache");
  await Deno.rename(box.cacheDir, elsewhere);
  await chownTree(box.victim);
  await Deno.symlink(elsewhere, box.cacheDir);
  const before = await snapshot(box.victim);
  assertSilent(await box.hook({ KB_HOOK_DEBUG: "1" }));
  const fresh = JSON.stringify({ ...JSON.parse(box.payload), session_id: "a-new-session" });
  assertSilent(await box.hook({ KB_HOOK_DEBUG: "1" }, fresh));
  assertRefused(
    await runCli(["get", "kb-7q2mx"], { env: box.env }),
    /git-kb get: .* is a symbolic link, not a folder: .*Remove it \(rm /,
  );
  assertEquals(await snapshot(box.victim), before, "the other folder is as it was");
  assert(Deno.lstatSync(box.cacheDir).isSymlink);
});

Deno.test("a knowledge base's cache folder git-kb cannot write: search reads the files and names it with the line that gets on, the hook stays silent", async () => {
  await using box = await makeBox();
  assertEquals((await runCli(["search", "token"], { env: box.env })).code, 0);
  // An entry added since: the index must be written again, in a folder that takes no write now.
  const added = entryText({ id: "kb-qk0ka", title: "Quokka feeding schedule", body: "Twice.\n" });
  await Deno.writeTextFile(join(box.kb, "entries", "kb-qk0ka-quokka.md"), added);
  const unlock = await lockFolder(box.cacheDir);
  try {
    const refused = await runCli(["search", "quokka"], { env: box.env });
    assertEquals(refused.code, 0, show(refused));
    assertMatch(refused.stdout, /kb-qk0ka/, "found in the files");
    assertMatch(
      refused.stderr,
      /^git-kb search: the index could not be brought up to date, so the entries were read from their files: cannot write git-kb's cache in (\S+) \((Operation not permitted|Permission denied)\); it only holds what git-kb rebuilds at any time: free room there or make it writable \(or give this shell a cache of its own: export XDG_CACHE_HOME="\$\(mktemp -d\)"\) and run again\.\n$/,
    );
    assert(refused.stderr.includes(box.cacheDir), show(refused));
    assertSilent(await box.hook());
    // The line, pasted: a cache of the shell's own, and the search goes through.
    const line = /(export XDG_CACHE_HOME="\$\(mktemp -d\)")\) and run again/.exec(
      refused.stderr,
    )![1];
    const pasted = await runProcess("/bin/sh", ["-c", `${line} && echo "$XDG_CACHE_HOME"`]);
    const env = { ...box.env, XDG_CACHE_HOME: pasted.stdout.trim() };
    const found = await runCli(["search", "quokka"], { env });
    assertEquals(found.code, 0, show(found));
    assertMatch(found.stdout, /kb-qk0ka/);
    assertEquals(found.stderr, "", "through the index, nothing to say");
    await Deno.remove(env.XDG_CACHE_HOME, { recursive: true });
  } finally {
    await unlock();
  }
});

Deno.test("a cache git-kb cannot make or write: get and search read the entries from their files and say why", async () => {
  await using box = await makeBox();
  // XDG_CACHE_HOME set to a folder that takes no write, as in an agent's sandbox: no cache root.
  const sealed = join(box.tmp, "sealed-cache");
  await Deno.mkdir(sealed);
  const env = { ...box.env, XDG_CACHE_HOME: sealed };
  const expected = await Deno.readTextFile(
    join(box.kb, "entries", "kb-7q2mx-rotate-a-leaked-npm-or-cloudflare-token.md"),
  );
  const why =
    /^git-kb get: the index could not be brought up to date, so the entries were read from their files: cannot write git-kb's cache in \S+sealed-cache\/git-kb \((Operation not permitted|Permission denied)\); .*export XDG_CACHE_HOME="\$\(mktemp -d\)"\) and run again\.$/m;
  const unlock = await lockFolder(sealed);
  try {
    const got = await runCli(["get", "kb-7q2mx"], { env });
    assertEquals(got.code, 0, show(got));
    assertEquals(got.stdout, expected);
    assertMatch(got.stderr, why);
    const linked = await runCli(["get", "kb-3hd8w", "kb-zzzzz", "--links"], { env });
    assertEquals(linked.code, 1, show(linked));
    assertMatch(
      linked.stdout,
      /^Links of kb-3hd8w:\n {2}← superseded-by kb-7q2mx Rotate a leaked/m,
    );
    assertMatch(linked.stderr, /^git-kb get: no entry kb-zzzzz: no file in \S+\/entries has it$/m);
    // Search ranks as the index would, from an index built in memory, and says why.
    const searched = await runCli(["search", "token", "--json"], { env });
    assertEquals(searched.code, 0, show(searched));
    assertMatch(
      searched.stderr,
      new RegExp(why.source.replace("git-kb get", "git-kb search"), "m"),
    );
    const cached = await runCli(["search", "token", "--json"], { env: box.env });
    assertEquals(parseJson(searched), parseJson(cached), "the same hits as through the cache");
    assert((parseJson(searched) as unknown[]).length > 0, show(searched));
  } finally {
    await unlock();
  }
  // The knowledge base's own cache folder sealed, an entry added since the index was written.
  assertEquals((await runCli(["search", "token"], { env: box.env })).code, 0);
  const added = entryText({ id: "kb-qk0ka", title: "Quokka feeding schedule", body: "Twice.\n" });
  await Deno.writeTextFile(join(box.kb, "entries", "kb-qk0ka-quokka.md"), added);
  const unlockKb = await lockFolder(box.cacheDir);
  try {
    const got = await runCli(["get", "kb-qk0ka"], { env: box.env });
    assertEquals(got.code, 0, show(got));
    assertEquals(got.stdout, added);
    assert(got.stderr.includes(`cannot write git-kb's cache in ${box.cacheDir} (`), show(got));
  } finally {
    await unlockKb();
  }
});
