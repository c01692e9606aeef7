/**
 * Shared helpers for the subprocess tests: sample knowledge bases in temp dirs (a real git repo,
 * optionally with a bare remote), the real CLI run as `deno run <least-privilege flags>`, and git.
 *
 * Every child process gets a cleared environment: only PATH, DENO_DIR and what the test passes,
 * so the user's HOME, git config and KB_DIR never leak in. A test's TMPDIR holds its cache: a
 * child given TMPDIR and no XDG_CACHE_HOME gets `XDG_CACHE_HOME=$TMPDIR`, so the cache root is
 * `$TMPDIR/git-kb` (see {@link childEnv}).
 *
 * @module
 */
import { join } from "@std/path/posix/join";
import { fileURLToPath } from "node:url";
import { flagsFor } from "../app/permissions.ts";
import { readEntryForgivingly } from "../core/entry/repair.ts";
import {
  type KernelRuleText,
  serializeAcceptedRules,
  withAccepted,
} from "../core/kernel/acceptance.ts";
import { cacheRootFor } from "../io/paths.ts";
import { runProcess } from "../io/process.ts";

/** The repository root. */
export const ROOT: string = fileURLToPath(new URL("..", import.meta.url));
/** The CLI entry point. */
export const MAIN: string = join(ROOT, "app", "main.ts");
/** The sample knowledge base (never written: tests work on copies). */
export const FIXTURE: string = join(ROOT, "fixtures", "sample-kb");
/** Number of entries in the sample knowledge base. */
export const FIXTURE_ENTRIES = 45;

/** A git identity given through the environment only. */
export const IDENTITY: Record<string, string> = {
  GIT_AUTHOR_NAME: "Test Author",
  GIT_AUTHOR_EMAIL: "author@example.test",
  GIT_COMMITTER_NAME: "Test Committer",
  GIT_COMMITTER_EMAIL: "committer@example.test",
};

/** Keeps git away from any system or user config. */
const GIT_ISOLATION: Record<string, string> = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_TERMINAL_PROMPT: "0",
};

const decoder = new TextDecoder();

let denoDirPromise: Promise<string> | undefined;

/** Deno's cache folder of the test process, so children with another HOME find npm:js-yaml. */
export function denoDir(): Promise<string> {
  denoDirPromise ??= (async () => {
    const fromEnv = Deno.env.get("DENO_DIR");
    if (fromEnv) return fromEnv;
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json"],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).output();
    return JSON.parse(decoder.decode(output.stdout)).denoDir as string;
  })();
  return denoDirPromise;
}

/** What a subprocess did. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options for {@link runCli}. */
export interface RunOptions {
  /** The whole environment of the child besides PATH and DENO_DIR. */
  env?: Record<string, string>;
  cwd?: string;
  /** Text piped to stdin; stdin is null otherwise. */
  stdin?: string;
  /** Deno flags instead of `flagsFor(args[0], cacheRootOf(env))`. */
  flags?: string[];
}

/** How {@link runDeno} runs a child. */
export interface DenoRunOptions {
  /** The child's whole environment besides PATH and DENO_DIR. */
  env: Record<string, string>;
  cwd?: string;
  /** Bytes or text piped to stdin; stdin is null otherwise. */
  stdin?: string | Uint8Array;
  /** Replaces the test process's DENO_DIR. */
  denoDir?: string;
}

/**
 * A test's environment as a child gets it: with TMPDIR and without XDG_CACHE_HOME (even empty),
 * `XDG_CACHE_HOME` is set to TMPDIR, keeping each test's cache in its own temp folder.
 */
export function childEnv(env: Record<string, string>): Record<string, string> {
  return env.TMPDIR && !("XDG_CACHE_HOME" in env) ? { ...env, XDG_CACHE_HOME: env.TMPDIR } : env;
}

/** The cache root a child run with `env` uses (see {@link childEnv}). */
export function cacheRootOf(env: Record<string, string>): string {
  const child = childEnv(env);
  return cacheRootFor((name) => child[name], Deno.uid());
}

/**
 * The whole environment of a `deno` child: `env` (see {@link childEnv}) plus PATH and the test
 * process's DENO_DIR (or `dir`).
 */
export async function denoChildEnv(
  env: Record<string, string>,
  dir?: string,
): Promise<Record<string, string>> {
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    DENO_DIR: dir ?? await denoDir(),
    DENO_NO_UPDATE_CHECK: "1",
    ...childEnv(env),
  };
}

/**
 * `git-kb mcp` from the sources with its own permission profile, in environment `env`, as a
 * child process whose stdin, stdout and stderr are pipes: what an MCP client starts.
 */
export async function spawnMcp(env: Record<string, string>): Promise<Deno.ChildProcess> {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", ...flagsFor("mcp", cacheRootOf(env)), MAIN, "mcp"],
    cwd: ROOT,
    clearEnv: true,
    env: await denoChildEnv(env),
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Resolves once a save holds the save lock of the knowledge base `kbDir`, or after 5 s. */
export async function saveUnderWay(kbDir: string): Promise<void> {
  const lock = join(kbDir, ".git", "git-kb.lock");
  for (let tries = 0; tries < 200 && !(await exists(lock)); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Run `deno <args>` with the environment given (plus PATH and DENO_DIR; see {@link childEnv}). */
export async function runDeno(args: string[], options: DenoRunOptions): Promise<RunResult> {
  return runProcess(Deno.execPath(), args, {
    cwd: options.cwd ?? ROOT,
    clearEnv: true,
    env: await denoChildEnv(options.env, options.denoDir),
    stdin: options.stdin,
  });
}

/**
 * Run the real CLI: `deno run <flagsFor(command, cache root)> app/main.ts <args>`, with the
 * environment given (plus PATH and DENO_DIR; see {@link childEnv}).
 */
export function runCli(args: string[], options: RunOptions = {}): Promise<RunResult> {
  const env = options.env ?? {};
  const flags = options.flags ??
    flagsFor(args[0] ?? "", cacheRootOf(env), env.VISUAL || env.EDITOR);
  return runDeno(["run", ...flags, MAIN, ...args], { env, cwd: options.cwd, stdin: options.stdin });
}

/** The prompt hook's entry point. */
export const HOOK = join(ROOT, "hooks", "prompt.ts");

/** How {@link runHook} runs the hook. */
export interface HookOptions {
  /** The child's whole environment besides PATH and DENO_DIR; must have TMPDIR. */
  env: Record<string, string>;
  /** Replaces the test process's DENO_DIR. */
  denoDir?: string;
  /** Extra `deno run` flags, before the script. */
  flags?: string[];
  /** Working directory (Claude Code runs hooks in the project folder); TMPDIR by default. */
  cwd?: string;
}

/**
 * Run the prompt hook as Claude Code would, with the read profile's permissions and no
 * `--allow-run`: `deno run --no-prompt --allow-read --allow-write=<cache root> --allow-sys=uid
 * --allow-env`.
 */
export function runHook(stdin: string | Uint8Array, options: HookOptions): Promise<RunResult> {
  const tmp = options.env.TMPDIR;
  if (!tmp) throw new Error("every hook run gets its own TMPDIR");
  return runDeno(
    [
      "run",
      "--no-prompt",
      "--allow-read",
      `--allow-write=${cacheRootOf(options.env)}`,
      "--allow-sys=uid",
      "--allow-env",
      ...(options.flags ?? []),
      HOOK,
    ],
    { env: options.env, cwd: options.cwd ?? tmp, stdin, denoDir: options.denoDir },
  );
}

/** Run git in `dir` with a fixed identity and no system/user config; returns the result. */
export async function gitRun(
  dir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<RunResult> {
  const output = await new Deno.Command("git", {
    args,
    cwd: dir,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: dir,
      GIT_CONFIG_GLOBAL: "/dev/null",
      LC_ALL: "C",
      ...GIT_ISOLATION,
      ...IDENTITY,
      ...env,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** Run `git args…` in `dir`; throw unless it succeeds. Returns stdout, trimmed. */
export async function git(dir: string, ...args: string[]): Promise<string> {
  const result = await gitRun(dir, args);
  if (result.code !== 0) {
    throw new Error(`git ${args.join(" ")} in ${dir} failed (${result.code}): ${result.stderr}`);
  }
  return result.stdout.trim();
}

/** Write `files` (path inside the folder → text) under `folder`. */
export async function writeFolder(folder: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    const file = join(folder, path);
    await Deno.mkdir(join(file, ".."), { recursive: true });
    await Deno.writeTextFile(file, text);
  }
}

/** Copy a folder tree. */
export async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const item of Deno.readDir(from)) {
    const source = join(from, item.name);
    const target = join(to, item.name);
    if (item.isDirectory) await copyDir(source, target);
    else if (item.isFile) await Deno.copyFile(source, target);
  }
}

/** A copy of the real plugin/bin in `bin`; returns its launcher. */
export async function realLauncherIn(bin: string): Promise<string> {
  await copyDir(join(ROOT, "plugin", "bin"), bin);
  const launcher = join(bin, "git-kb");
  await Deno.chmod(launcher, 0o755);
  return launcher;
}

/** Options for {@link makeKb}. */
export interface KbOptions {
  /** Also create a bare repo, set it as `origin` and push with upstream tracking. */
  remote?: boolean;
  /** Start from an empty `entries/` folder instead of the sample entries. */
  empty?: boolean;
}

/** A knowledge base in a temp dir, with the environment a CLI run against it needs. */
export interface Kb {
  /** The temp dir holding everything below; removed by {@link Kb.cleanup}. */
  root: string;
  /** The knowledge base repo (working tree). */
  dir: string;
  /** The bare remote, when asked for. */
  remote?: string;
  /** TMPDIR of CLI runs: the cache goes to `$TMPDIR/git-kb` (see {@link childEnv}). */
  tmp: string;
  /** HOME of CLI runs (empty). */
  home: string;
  /** XDG_CONFIG_HOME of CLI runs (empty). */
  config: string;
  /** The environment for CLI runs: TMPDIR, HOME, XDG_CONFIG_HOME, KB_DIR, NO_COLOR, identity. */
  env: Record<string, string>;
  /** Remove the temp dir. */
  cleanup(): Promise<void>;
  /** {@link Kb.cleanup}, so a test can hold it with `await using kb = await makeKb()`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** The kernel rules of the knowledge base in `kbDir`, read as the index reads them. */
export async function kernelRulesOf(kbDir: string): Promise<KernelRuleText[]> {
  const rules: KernelRuleText[] = [];
  for await (const item of Deno.readDir(join(kbDir, "entries"))) {
    const path = `entries/${item.name}`;
    if (!item.isFile || !path.endsWith(".md")) continue;
    const { entry } = readEntryForgivingly(await Deno.readTextFile(join(kbDir, path)), {
      path,
      fallbackDate: () => "2026-01-01",
    });
    if (entry?.kernel) rules.push({ id: entry.id, title: entry.title, body: entry.body.trim() });
  }
  return rules;
}

/**
 * Record `rules` as accepted by the user whose XDG config folder is `config`, as
 * `git-kb kernel --accept` does.
 */
export async function acceptKernel(config: string, rules: KernelRuleText[]): Promise<void> {
  await Deno.mkdir(join(config, "git-kb"), { recursive: true, mode: 0o700 });
  const path = join(config, "git-kb", "kernel-accepted.json");
  let accepted = {};
  try {
    accepted = JSON.parse(await Deno.readTextFile(path)).rules;
  } catch { /* none yet */ }
  await Deno.writeTextFile(path, serializeAcceptedRules(withAccepted(accepted, rules)), {
    mode: 0o600,
  });
}

let sampleKernel: Promise<KernelRuleText[]> | undefined;

/**
 * Create an empty temp dir layout (root, tmp, home, config) without a knowledge base; hold it
 * with `await using` to have it removed when the test's block ends. Its user has accepted the
 * sample knowledge base's kernel rules, as a user of their own rules would have.
 */
export async function makeSandbox(prefix = "git-kb-test-"): Promise<Omit<Kb, "dir" | "env">> {
  const root = await Deno.makeTempDir({ prefix });
  const tmp = join(root, "tmp");
  const home = join(root, "home");
  const config = join(root, "xdg-config");
  await Promise.all([tmp, home, config].map((dir) => Deno.mkdir(dir, { recursive: true })));
  await acceptKernel(config, await (sampleKernel ??= kernelRulesOf(FIXTURE)));
  const cleanup = () => Deno.remove(root, { recursive: true }).catch(() => {});
  return { root, tmp, home, config, cleanup, [Symbol.asyncDispose]: cleanup };
}

/**
 * The environment of a CLI run in `sandbox` with no knowledge base configured yet: its own
 * TMPDIR, HOME and XDG config, no colour, no system git config.
 */
export function sandboxEnv(sandbox: { tmp: string; home: string; config: string }): Record<
  string,
  string
> {
  return {
    TMPDIR: sandbox.tmp,
    HOME: sandbox.home,
    XDG_CONFIG_HOME: sandbox.config,
    NO_COLOR: "1",
    GIT_CONFIG_NOSYSTEM: "1",
  };
}

/** A temp dir that `await using` removes when the block holding it ends. */
export interface TempDir extends AsyncDisposable {
  /** The folder, created empty. */
  path: string;
}

/** Create an empty temp dir: `await using dir = await tempDir("git-kb-x-")`. */
export async function tempDir(prefix = "git-kb-test-"): Promise<TempDir> {
  const path = await Deno.makeTempDir({ prefix });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

/**
 * Copy the sample knowledge base into a temp dir, `git init` and commit it; with `remote`, also
 * create a bare repo, add it as `origin` and push `main` with upstream tracking.
 */
export async function makeKb(options: KbOptions = {}): Promise<Kb> {
  const sandbox = await makeSandbox();
  const dir = join(sandbox.root, "kb");
  if (options.empty) {
    await Deno.mkdir(join(dir, "entries"), { recursive: true });
    await Deno.writeTextFile(join(dir, "entries", ".gitkeep"), "");
  } else {
    await copyDir(FIXTURE, dir);
  }
  await git(dir, "init", "--quiet", "-b", "main");
  await git(dir, "add", "-A");
  await git(dir, "commit", "--quiet", "-m", "sample knowledge base");
  let remote: string | undefined;
  if (options.remote) {
    remote = join(sandbox.root, "remote.git");
    await git(sandbox.root, "init", "--quiet", "--bare", "-b", "main", remote);
    await git(dir, "remote", "add", "origin", remote);
    await git(dir, "push", "--quiet", "-u", "origin", "main");
  }
  return {
    ...sandbox,
    dir,
    remote,
    env: {
      TMPDIR: sandbox.tmp,
      HOME: sandbox.home,
      XDG_CONFIG_HOME: sandbox.config,
      KB_DIR: dir,
      NO_COLOR: "1",
      ...GIT_ISOLATION,
      ...IDENTITY,
    },
  };
}

/** A second clone of the knowledge base's bare remote: "someone else" pushing. */
export async function cloneRemote(kb: Kb, name = "other"): Promise<string> {
  if (!kb.remote) throw new Error("makeKb({ remote: true }) first");
  const dir = join(kb.root, name);
  await git(kb.root, "clone", "--quiet", kb.remote, dir);
  return dir;
}

/** Write, commit and push a new entry file from another clone; returns its path in the repo. */
export async function pushEntryFrom(
  clone: string,
  id: string,
  title: string,
  body = "Pushed by someone else.\n",
): Promise<string> {
  const path = await writeEntryFile(clone, { id, title, body });
  await git(clone, "add", "--", path);
  await git(clone, "commit", "--quiet", "-m", `kb: add ${id}: ${title}`);
  await git(clone, "push", "--quiet", "origin", "HEAD:main");
  return path;
}

/**
 * Commit `attributes` as the `.gitattributes` of the clone `clone` (with whatever else is staged
 * there) and push it to the remote's main, as a teammate would.
 */
export async function pushAttributes(clone: string, attributes: string): Promise<void> {
  await Deno.writeTextFile(join(clone, ".gitattributes"), attributes);
  await git(clone, "add", ".gitattributes");
  await git(clone, "commit", "--quiet", "-m", "a teammate's .gitattributes");
  await git(clone, "push", "--quiet", "origin", "HEAD:main");
}

/** The text of a minimal valid entry. */
export function entryText(
  { id, title, body, type = "note", extra = "" }: {
    id: string;
    title: string;
    body: string;
    type?: string;
    extra?: string;
  },
): string {
  return `---\nid: ${id}\ntitle: ${title}\ntype: ${type}\ntags: [test]\n${extra}` +
    `created: 2026-01-01\nupdated: 2026-01-01\n---\n${body}`;
}

/**
 * Write the minimal valid entry of `fields` ({@link entryText}) into the knowledge base at `kbDir`,
 * under the file name git-kb gives it; returns its path in the repository.
 */
export async function writeEntryFile(
  kbDir: string,
  fields: Parameters<typeof entryText>[0],
): Promise<string> {
  const path = `entries/${fields.id}-${fields.title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}.md`;
  await Deno.writeTextFile(join(kbDir, path), entryText(fields));
  return path;
}

/** The path (relative to the knowledge base) of the entry with `id`. */
export async function entryPath(kbDir: string, id: string): Promise<string> {
  for await (const item of Deno.readDir(join(kbDir, "entries"))) {
    if (item.name.startsWith(`${id}-`)) return `entries/${item.name}`;
  }
  throw new Error(`no file for ${id} in ${kbDir}`);
}

/** Every file under `dir` (relative path → content), skipping folders named in `skip`. */
export async function snapshot(dir: string, skip: string[] = []): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  async function walk(folder: string, prefix: string) {
    for await (const item of Deno.readDir(folder)) {
      const relative = prefix ? `${prefix}/${item.name}` : item.name;
      if (skip.includes(relative)) continue;
      const path = join(folder, item.name);
      if (item.isDirectory) await walk(path, relative);
      else files.set(relative, item.isFile ? await Deno.readTextFile(path) : "<link>");
    }
  }
  await walk(dir, "");
  return files;
}

/** Whether anything exists at `path`. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Parse the JSON a command printed, with the output in the error when it does not parse. */
export function parseJson<T = unknown>(result: RunResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(
      `expected JSON on stdout (exit ${result.code})\nstdout: ${result.stdout}\nstderr: ${result.stderr}`,
    );
  }
}

/** A compact description of a run, for assertion messages. */
export function show(result: RunResult): string {
  return `exit ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
}

/** Matches any ANSI escape sequence. */
// deno-lint-ignore no-control-regex
export const ANSI = /\x1b\[/;

/** Matches a stack-trace frame line. */
export const STACK_FRAME = /^\s+at /m;

/** Run `action` over `items` with at most `limit` running at once, keeping the order. */
export async function mapLimit<T, R>(
  items: T[],
  limit: number,
  action: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const index = next++;
      results[index] = await action(items[index], index);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Set, to the test's name, in the child process {@link runAlone} runs one test in. */
const ISOLATED = "GIT_KB_TEST_ISOLATED";

/**
 * Run the test of context `t` alone, in a child `deno test` of its own file, when its body changes
 * this process's environment ({@link overrideEnv}) or reads what the process as a whole counts
 * (the CPU time of its children): `deno test --parallel` runs test files side by side in one
 * process, whose environment they all share, so a change made in it would reach the other files'
 * in-process code and the children they start (a child `deno` given another HOME looks for its
 * cache elsewhere, and downloads it). Resolves to true once the child passed (the
 * caller returns), false in the child (the caller goes on with the body); throws when the child
 * failed. First line of such a test: `if (await runAlone(t)) return;`.
 */
export async function runAlone(t: Deno.TestContext): Promise<boolean> {
  if (Deno.env.get(ISOLATED) === t.name) return false;
  const exact = `/^${t.name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$/`;
  const result = await runProcess(Deno.execPath(), [
    "test",
    "--allow-all",
    "--no-prompt",
    "--no-check",
    `--filter=${exact}`,
    fileURLToPath(t.origin),
  ], { cwd: ROOT, env: { [ISOLATED]: t.name, NO_COLOR: "1" } });
  if (result.code !== 0 || !/^ok \| 1 passed/m.test(result.stdout)) {
    throw new Error(`run alone, in a process of its own, the test failed:\n${show(result)}`);
  }
  return true;
}

/**
 * Set this process's environment variables `values` (undefined unsets one) until the returned
 * handle is disposed, then put back what they were: `using _env = overrideEnv({ TMPDIR: tmp })`.
 * Only in a test run alone ({@link runAlone}): anywhere else it throws, as the change would reach
 * the tests running beside it.
 */
export function overrideEnv(values: Record<string, string | undefined>): Disposable {
  if (!Deno.env.get(ISOLATED)) {
    throw new Error("overrideEnv changes the whole test process's environment: runAlone(t) first");
  }
  const before = Object.fromEntries(Object.keys(values).map((name) => [name, Deno.env.get(name)]));
  const apply = (settings: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(settings)) {
      if (value === undefined) Deno.env.delete(name);
      else Deno.env.set(name, value);
    }
  };
  apply(values);
  return { [Symbol.dispose]: () => apply(before) };
}

/** Copy the sample knowledge base to `dest`; with `noKernel`, its kernel rules become plain. */
export async function copySampleKb(dest: string, options: { noKernel?: boolean } = {}) {
  await copyDir(FIXTURE, dest);
  if (!options.noKernel) return;
  for await (const item of Deno.readDir(join(dest, "entries"))) {
    const path = join(dest, "entries", item.name);
    const text = await Deno.readTextFile(path);
    if (text.includes("\nkernel: true")) {
      await Deno.writeTextFile(path, text.replace("\nkernel: true", "\nkernel: false"));
    }
  }
}

/** The bytes in a block of `ulimit -f` in `sh`: 512 or 1024, as the shell counts. */
export async function fileLimitBlock(dir: string): Promise<number> {
  const probe = join(dir, "file-limit-probe");
  const write = `trap '' XFSZ; ulimit -f 1; head -c 4096 /dev/zero > "$0"`;
  await runProcess("sh", ["-c", write, probe], {});
  return (await Deno.stat(probe)).size;
}

/**
 * Run the CLI the way {@link runCli} does, but with each file it writes limited to `blocks` of
 * `ulimit -f` and SIGXFSZ ignored, so that a write past the limit fails (EFBIG) as one on a full
 * disk does (ENOSPC): after the file was opened and cut to nothing.
 */
export async function runCliWithFileLimit(
  blocks: number,
  args: string[],
  env: Record<string, string>,
): Promise<RunResult> {
  const deno = [Deno.execPath(), "run", ...flagsFor(args[0], cacheRootOf(env), env.EDITOR)];
  return await runProcess(
    "sh",
    ["-c", `trap '' XFSZ; ulimit -f ${blocks}; exec "$@"`, "sh", ...deno, MAIN, ...args],
    { cwd: ROOT, clearEnv: true, env: await denoChildEnv(env) },
  );
}

/** What {@link runCliSwappingAtLook} swaps, and when. */
export interface SwapAtLook {
  /** The file swapped, by its absolute path. */
  file: string;
  /** Where the symbolic link put in its place leads. */
  linkTo: string;
  /** The function whose `lstat` of `file` makes the swap (the look before the open). */
  caller: string;
}

/**
 * Run the CLI with `args` in a child (its `main`, all permissions, environment `env`) in which the
 * first `Deno.lstatSync` of `swap.file` made by `swap.caller` replaces the file, once looked at, by
 * a symbolic link to `swap.linkTo`: the race between a look and an open, won every time.
 */
export async function runCliSwappingAtLook(
  args: string[],
  env: Record<string, string>,
  swap: SwapAtLook,
): Promise<RunResult> {
  const script = await Deno.makeTempFile({ prefix: "git-kb-swap-", suffix: ".ts" });
  try {
    await Deno.writeTextFile(
      script,
      [
        `import { main } from ${JSON.stringify(MAIN)};`,
        `const swap = ${JSON.stringify(swap)};`,
        "const lstat = Deno.lstatSync;",
        "let swapped = false;",
        "Object.assign(Deno, {",
        "  lstatSync(path: string | URL) {",
        "    const seen = lstat(path);",
        "    if (!swapped && String(path) === swap.file && seen.isFile &&",
        "      new Error().stack?.includes(`at ${swap.caller} `)) {",
        "      swapped = true;",
        "      Deno.removeSync(swap.file);",
        "      Deno.symlinkSync(swap.linkTo, swap.file);",
        "    }",
        "    return seen;",
        "  },",
        "});",
        `Deno.exit(await main(${JSON.stringify(args)}));`,
      ].join("\n"),
    );
    return await runDeno(["run", "-A", "--config", join(ROOT, "deno.json"), script], { env });
  } finally {
    await Deno.remove(script);
  }
}

/**
 * Make `folder` unwritable to this user, root too (root ignores permission bits, so as root the
 * folder is made immutable, with chattr); returns what makes it writable again.
 */
export async function lockFolder(folder: string): Promise<() => Promise<void>> {
  if (Deno.uid() !== 0) {
    // Not 0555: a cache folder others may read is narrowed to 0700, which is writable again.
    const { mode } = await Deno.stat(folder);
    await Deno.chmod(folder, 0o500);
    return () => Deno.chmod(folder, (mode ?? 0o755) & 0o777);
  }
  const chattr = (flag: string) => new Deno.Command("chattr", { args: [flag, folder] }).output();
  const locked = await chattr("+i");
  if (!locked.success) {
    throw new Error(`chattr +i ${folder}: ${new TextDecoder().decode(locked.stderr)}`);
  }
  return async () => void await chattr("-i");
}
