/**
 * What the session's freshness watch (`git-kb hook watch`) costs the rest, each against a
 * baseline measured in the same run, interleaved:
 *
 * - the prompt hook on a quiet prompt (one that fires nothing), whole process through the plugin
 *   launcher, at `--entries` entries, with no watch running and with a watch running beside it
 *   at its real period, met between its checks (each stats every file, 35–80 ms every 30 s, in a
 *   process of its own), in alternating blocks: whole process, and the decision in-process;
 * - with `CLAUDE_CLI` set (as `deno task test:e2e` installs it), the wall time of a `claude -p`
 *   session against a loopback mock of the Messages API, with the plugin as built and with the
 *   same plugin without the watch's handler.
 *
 * ```sh
 * deno task bench:watch [--entries 5000] [--runs 11] [--blocks 6] [--sessions 10]
 * CLAUDE_CLI=$TMPDIR/git-kb-e2e-claude-2.1.197/node_modules/.bin/claude deno task bench:watch
 * ```
 *
 * Target (issue 19): a quiet prompt at 5,000 entries costs at most 1 ms more with the watch; a
 * session does not wait for it.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { join } from "../core/path.ts";
import { flagsFor } from "../app/permissions.ts";
import { openIndex } from "../io/index/store.ts";
import { runProcess } from "../io/process.ts";
import { CLAUDE_CLI, clientEnv, installPlugin, say, startMockApi } from "../tests/e2e/_mock_api.ts";
import { commitAll, generateKb, parseFlags } from "./generate.ts";
import { formatMs, interleaved, median, progress, quantile, timeProcess } from "./_timing.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const launcher = join(root, "plugin/bin/git-kb");

/** A prompt that fires nothing in a generated knowledge base. */
const QUIET = "what should I bake for dinner tonight with flour, butter and some eggs";

/** A generated knowledge base without kernel rules (so a prompt can fire nothing), indexed. */
async function prepare(entries: number, cache: string): Promise<string> {
  const kbDir = Deno.makeTempDirSync({ prefix: `git-kb-watch-bench-${entries}-` });
  progress(`generating ${entries} entries in ${kbDir}`);
  await generateKb(kbDir, entries, 1);
  for (const item of Deno.readDirSync(join(kbDir, "entries"))) {
    const path = join(kbDir, "entries", item.name);
    const text = Deno.readTextFileSync(path);
    if (text.includes("\nkernel: true\n")) {
      Deno.writeTextFileSync(path, text.replace("\nkernel: true\n", "\nkernel: false\n"));
    }
  }
  await commitAll(kbDir, `Generate ${entries} entries`);
  Deno.env.set("XDG_CACHE_HOME", cache);
  await openIndex(kbDir, { full: true });
  return kbDir;
}

/** A watch started as the plugin starts it, on `env`; stop it with SIGTERM. */
async function startWatch(env: Record<string, string>): Promise<Deno.ChildProcess> {
  const watch = new Deno.Command(launcher, {
    args: ["hook", "watch"],
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const writer = watch.stdin.getWriter();
  await writer.write(new TextEncoder().encode('{"session_id":"bench","source":"startup"}'));
  await writer.close();
  return watch;
}

/** Medians and quartiles of `samples`, in ms. */
function spread(samples: number[]): string {
  return `median ${formatMs(median(samples))} ms (quartiles ${formatMs(quantile(samples, 0.25))}` +
    `–${formatMs(quantile(samples, 0.75))})`;
}

/**
 * Quiet prompts with no watch running and with one running, in alternating blocks (a watch is
 * started before each block of its arm, past its start and first check when the block begins,
 * and stopped after it): the whole process through the launcher, and the decision in-process
 * (`_decide.ts`: open the index, decide, record; the median of `runs` rounds per block).
 */
async function promptCost(entries: number, runs: number, blocks: number): Promise<void> {
  const cache = Deno.makeTempDirSync({ prefix: "git-kb-watch-bench-cache-" });
  const kbDir = await prepare(entries, cache);
  const env = {
    XDG_CACHE_HOME: cache,
    TMPDIR: cache,
    HOME: cache,
    KB_DIR: kbDir,
    NO_COLOR: "1",
    PATH: Deno.env.get("PATH") ?? "",
  };
  const stdin = JSON.stringify({
    session_id: "bench-prompt",
    hook_event_name: "UserPromptSubmit",
    prompt: QUIET,
  });
  const wholeProcess = async () => {
    const times: number[] = [];
    for (let run = 0; run < runs; run++) {
      const result = await timeProcess(launcher, ["hook", "prompt"], root, env, stdin);
      if (result.code !== 0 || result.stdout.trim()) {
        throw new Error(`the quiet prompt printed ${result.stdout.slice(0, 200)} ${result.stderr}`);
      }
      times.push(result.ms);
    }
    return times;
  };
  const decision = async () => {
    const args = ["run", "--quiet", ...flagsFor("context", cache), join(root, "bench/_decide.ts")];
    const result = await timeProcess("deno", [...args, kbDir, String(runs), QUIET], root, env);
    if (result.code !== 0) throw new Error(`bench/_decide.ts: ${result.stderr}`);
    return JSON.parse(result.stdout) as number[];
  };
  const alone = { whole: [] as number[], decided: [] as number[] };
  const beside = { whole: [] as number[], decided: [] as number[] };
  for (let block = 0; block < blocks; block++) {
    progress(`  block ${block + 1}/${blocks}`);
    for (const withWatch of block % 2 ? [true, false] : [false, true]) {
      const into = withWatch ? beside : alone;
      const watch = withWatch ? await startWatch(env) : undefined;
      if (watch) await new Promise((done) => setTimeout(done, 3_000));
      into.whole.push(...await wholeProcess());
      into.decided.push(...await decision());
      watch?.kill("SIGTERM");
      await watch?.status;
    }
  }
  console.log(`quiet prompt at ${entries} entries, ${blocks} blocks of ${runs} runs per arm:`);
  console.log(`  whole process, no watch running: ${spread(alone.whole)}`);
  console.log(`  whole process, a watch running:  ${spread(beside.whole)}`);
  console.log(
    `  difference of medians: ${(median(beside.whole) - median(alone.whole)).toFixed(2)} ms`,
  );
  console.log(`  decision in-process, no watch running: ${spread(alone.decided)}`);
  console.log(`  decision in-process, a watch running:  ${spread(beside.decided)}`);
  console.log(
    `  difference of medians: ${(median(beside.decided) - median(alone.decided)).toFixed(2)} ms`,
  );
  Deno.removeSync(kbDir, { recursive: true });
  Deno.removeSync(cache, { recursive: true });
}

/** The plugin's marketplace copied to `dir`, its hooks without the watch's handler. */
function marketplaceWithoutWatch(dir: string): string {
  for (const folder of [".claude-plugin", "plugin"]) {
    Deno.mkdirSync(join(dir, folder), { recursive: true });
  }
  Deno.copyFileSync(
    join(root, ".claude-plugin/marketplace.json"),
    join(dir, ".claude-plugin/marketplace.json"),
  );
  const copy = (from: string, to: string) => {
    for (const item of Deno.readDirSync(from)) {
      if (item.isDirectory) {
        Deno.mkdirSync(join(to, item.name), { recursive: true });
        copy(join(from, item.name), join(to, item.name));
      } else Deno.copyFileSync(join(from, item.name), join(to, item.name));
    }
  };
  copy(join(root, "plugin"), join(dir, "plugin"));
  const hooksFile = join(dir, "plugin/hooks/hooks.json");
  const hooks = JSON.parse(Deno.readTextFileSync(hooksFile));
  hooks.hooks.SessionStart = hooks.hooks.SessionStart.filter((
    group: { hooks: { command: string }[] },
  ) => !group.hooks.some((handler) => handler.command.endsWith(" hook watch")));
  Deno.writeTextFileSync(hooksFile, JSON.stringify(hooks, null, 2));
  return dir;
}

/** `claude -p` sessions with and without the watch's handler, interleaved. */
async function sessionWall(claude: string, sessions: number): Promise<void> {
  const scratch = Deno.makeTempDirSync({ prefix: "git-kb-watch-bench-sessions-" });
  const cache = join(scratch, "cache");
  const kbDir = await prepare(200, cache);
  await using mock = startMockApi(() => say("done"));
  const arms = [];
  for (
    const [name, marketplace] of [
      ["with the watch", root],
      ["without it", marketplaceWithoutWatch(join(scratch, "market"))],
    ]
  ) {
    const home = join(scratch, `home-${arms.length}`);
    const project = join(scratch, `project-${arms.length}`);
    Deno.mkdirSync(home);
    Deno.mkdirSync(project);
    const env = await clientEnv({ home, tmp: scratch }, mock.port, {
      KB_DIR: kbDir,
      XDG_CACHE_HOME: cache,
    });
    await installPlugin(claude, project, env, marketplace);
    const run = async () => {
      const started = performance.now();
      const result = await runProcess(claude, [
        "-p",
        "hello there",
        "--session-id",
        crypto.randomUUID(),
      ], { cwd: project, env, clearEnv: true, timeoutMs: 120_000 });
      if (result.code !== 0) throw new Error(`claude -p: ${result.stdout}${result.stderr}`);
      return performance.now() - started;
    };
    arms.push({ name, run });
  }
  const samples = await interleaved("session", sessions, arms.map(({ run }) => run));
  console.log(`claude -p session wall time, ${sessions} sessions each, interleaved:`);
  for (const [index, { name }] of arms.entries()) {
    console.log(`  ${name}: ${spread(samples[index])}`);
  }
  Deno.removeSync(scratch, { recursive: true });
}

if (import.meta.main) {
  const flags = parseFlags(Deno.args);
  const number = (name: string, fallback: number) => Number(flags.get(name) ?? fallback);
  await promptCost(number("entries", 5000), number("runs", 11), number("blocks", 6));
  if (CLAUDE_CLI) await sessionWall(CLAUDE_CLI, number("sessions", 10));
  else console.log("claude -p sessions: skipped (set CLAUDE_CLI to the real client)");
}
