/**
 * How long `git-kb import` takes on a generated Obsidian vault, as the user runs it: the real CLI
 * as a subprocess with its own permissions, into a fresh knowledge base with a bare remote (one
 * commit, one push, one reindex). Each note has frontmatter tags, an inline tag, a folder and
 * wikilinks to other notes (one in ten names no note). The target is under 10 s for 1,000 notes.
 *
 * ```sh
 * deno task bench:import [--notes 1000] [--runs 3] [--seed 1]
 * ```
 *
 * @module
 */
import { flagsFor } from "../app/permissions.ts";
import { join } from "../core/path.ts";
import { runProcess } from "../io/process.ts";
import { formatMs, median, progress, timeProcess } from "./_timing.ts";
import { createRandom, parseFlags, type Random } from "./generate.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const WORDS = [
  "deploy",
  "rollback",
  "cache",
  "token",
  "rotate",
  "index",
  "query",
  "backup",
  "restore",
  "migrate",
  "schema",
  "queue",
  "retry",
  "timeout",
  "proxy",
  "certificate",
];
const FOLDERS = ["Ops", "Ops/Cloud", "Dev", "Dev/Testing", "Notes"];

/** The text of note `n` of `count`, linking to a few others by title. */
function noteText(n: number, count: number, random: Random): string {
  const words = Array.from({ length: 8 }, () => random.pick(WORDS));
  const links = Array.from(
    { length: 3 },
    () => random.chance(0.1) ? "[[No such note]]" : `[[Note ${random.int(0, count - 1)}]]`,
  );
  return `---\ntags: ${random.pick(WORDS)}, ${random.pick(WORDS)}\ncreated: 2024-01-0${
    1 + (n % 9)
  }\n---\n# Note ${n}\n\n${words.join(" ")} #${random.pick(WORDS)}.\n\nSee ${links.join(", ")}.\n`;
}

async function writeVault(dir: string, count: number, seed: number): Promise<void> {
  const random = createRandom(seed);
  await Deno.mkdir(join(dir, ".obsidian"), { recursive: true });
  for (let n = 0; n < count; n++) {
    const folder = join(dir, FOLDERS[n % FOLDERS.length]);
    await Deno.mkdir(folder, { recursive: true });
    await Deno.writeTextFile(join(folder, `Note ${n}.md`), noteText(n, count, random));
  }
}

async function git(cwd: string, ...args: string[]): Promise<void> {
  const result = await runProcess("git", args, { cwd });
  if (result.code !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
}

/** A fresh knowledge base with a bare remote under `root`; returns its folder. */
async function freshKb(root: string): Promise<string> {
  const kb = join(root, "kb");
  await Deno.mkdir(join(kb, "entries"), { recursive: true });
  await Deno.writeTextFile(join(kb, "entries", ".gitkeep"), "");
  await git(root, "init", "--quiet", "--bare", "-b", "main", "remote.git");
  await git(kb, "init", "--quiet", "-b", "main");
  await git(kb, "add", "-A");
  await git(
    kb,
    "-c",
    "user.name=bench",
    "-c",
    "user.email=bench@localhost",
    "commit",
    "-qm",
    "init",
  );
  await git(kb, "remote", "add", "origin", join(root, "remote.git"));
  await git(kb, "push", "--quiet", "-u", "origin", "main");
  return kb;
}

async function main(): Promise<void> {
  const flags = parseFlags(Deno.args);
  const count = Number(flags.get("notes") ?? 1000);
  const runs = Number(flags.get("runs") ?? 3);
  const seed = Number(flags.get("seed") ?? 1);
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const root = await Deno.makeTempDir({ prefix: "git-kb-import-bench-" });
    try {
      const vault = join(root, "vault");
      await writeVault(vault, count, seed);
      const kb = await freshKb(root);
      const env = {
        KB_DIR: kb,
        HOME: join(root, "home"),
        XDG_CACHE_HOME: join(root, "cache"),
        XDG_CONFIG_HOME: join(root, "config"),
        DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/", ".cache", "deno"),
        PATH: Deno.env.get("PATH") ?? "",
        GIT_AUTHOR_NAME: "bench",
        GIT_AUTHOR_EMAIL: "bench@localhost",
        GIT_COMMITTER_NAME: "bench",
        GIT_COMMITTER_EMAIL: "bench@localhost",
      };
      const args = [
        "run",
        ...flagsFor("import", join(root, "cache", "git-kb")),
        join(ROOT, "app/main.ts"),
        "import",
        vault,
      ];
      const result = await timeProcess("deno", args, ROOT, env);
      if (result.code !== 0) throw new Error(`import failed:\n${result.stderr}\n${result.stdout}`);
      times.push(result.ms);
      progress(`run ${run + 1}: ${formatMs(result.ms)} ms — ${result.stdout.split("\n")[0]}`);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  }
  console.log(
    `git-kb import of a ${count}-note vault: median ${formatMs(median(times))} ms ` +
      `over ${runs} runs (target: under 10 s for 1,000 notes)`,
  );
}

if (import.meta.main) await main();
