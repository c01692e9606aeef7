/**
 * `deno task demo`: the whole loop on the built-in sample knowledge base, in a throwaway
 * folder. It publishes the sample to a local bare "remote", then runs the real CLI and the real
 * prompt hook as a new user would: init (clone) → search → get → add (commit + push) →
 * context → the UserPromptSubmit hook. Every git-kb command and hook runs through the plugin's
 * launcher (`plugin/bin/git-kb`), as the `git-kb` command and Claude Code run them: the bundles,
 * with each command's own permissions, and nothing for Deno to download. Your own config and
 * knowledge base are never touched.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { join } from "./core/path.ts";
import { shellCommand, shellQuote } from "./core/shell/quote.ts";
import { runProcess } from "./io/process.ts";

const root = fileURLToPath(new URL(".", import.meta.url));
const work = Deno.makeTempDirSync({ prefix: "git-kb-demo-" });
const env = {
  TMPDIR: join(work, "tmp"),
  XDG_CACHE_HOME: join(work, "tmp"),
  XDG_CONFIG_HOME: join(work, "config"),
  XDG_DATA_HOME: join(work, "data"),
  NO_COLOR: "1",
  GIT_AUTHOR_NAME: "git-kb demo",
  GIT_AUTHOR_EMAIL: "demo@git-kb.invalid",
  GIT_COMMITTER_NAME: "git-kb demo",
  GIT_COMMITTER_EMAIL: "demo@git-kb.invalid",
};
Deno.mkdirSync(env.TMPDIR, { recursive: true });

async function run(
  program: string,
  args: string[],
  options: { cwd?: string; stdin?: string } = {},
) {
  const output = await runProcess(program, args, {
    cwd: options.cwd ?? root,
    env,
    stdin: options.stdin,
  });
  if (output.code !== 0) {
    throw new Error(`${program} ${args.join(" ")} failed:\n${output.stdout}${output.stderr}`);
  }
  return output.stdout + output.stderr;
}

/** Echo a command as a shell would take it when pasted: each word quoted for POSIX sh. */
function echo(words: string[], stdinFile?: string): void {
  const redirect = stdinFile === undefined ? "" : ` < ${shellQuote(stdinFile)}`;
  console.log(`\n$ ${shellCommand(words)}${redirect}`);
}

/** The plugin's launcher: what the `git-kb` command and the plugin's hooks run. */
const launcher = join(root, "plugin/bin/git-kb");

async function gitKb(command: string, ...args: string[]): Promise<string> {
  echo(["git-kb", command, ...args]);
  const output = await run(launcher, [command, ...args]);
  console.log(output.trimEnd());
  return output;
}

function copyDir(from: string, to: string): void {
  Deno.mkdirSync(to, { recursive: true });
  for (const item of Deno.readDirSync(from)) {
    if (item.isDirectory) copyDir(join(from, item.name), join(to, item.name));
    else Deno.copyFileSync(join(from, item.name), join(to, item.name));
  }
}

try {
  console.log(`git-kb demo in ${work}`);
  const remote = join(work, "remote.git");
  const staging = join(work, "staging");
  copyDir(join(root, "fixtures/sample-kb"), staging);
  await run("git", ["init", "--quiet", "--bare", remote]);
  await run("git", ["init", "--quiet", "-b", "main"], { cwd: staging });
  await run("git", ["add", "."], { cwd: staging });
  await run("git", ["commit", "--quiet", "-m", "Sample knowledge base"], { cwd: staging });
  await run("git", ["push", "--quiet", remote, "main"], { cwd: staging });
  await run("git", ["symbolic-ref", "HEAD", "refs/heads/main"], { cwd: remote });
  console.log(`Published the sample knowledge base (45 entries) to the bare repo ${remote}`);

  const kb = join(work, "kb");
  await gitKb("init", remote, "--dir", kb);
  // Kernel rules that came with a clone apply once accepted (after reading `git-kb kernel`).
  await gitKb("kernel", "--accept-all");
  await gitKb("search", "rotate leaked token", "credential exposure", "--limit", "3");
  await gitKb("search", "postgres migration", "--type", "rule");
  await gitKb("get", "kb-7q2mx", "--links");
  await gitKb(
    "add",
    "--title",
    "Prefer git switch over git checkout for branches",
    "--type",
    "rule",
    "--tag",
    "git,cli",
    "--alias",
    "checkout",
    "--link",
    "related:kb-r4b9t",
    "--body",
    "`git switch` only moves branches, so a typo cannot overwrite files.",
  );
  for (const [repo, count] of [[kb, "-2"], [remote, "-1"]]) {
    const args = ["-C", repo, "log", "--oneline", count];
    echo(["git", ...args]);
    console.log((await run("git", args)).trimEnd());
  }
  await gitKb("context", "How do I rotate a leaked Cloudflare token used by our CI?");

  const payloadFile = "fixtures/hooks/prompt-match.json";
  const payload = Deno.readTextFileSync(join(root, payloadFile));
  console.log("\nThe UserPromptSubmit hook, given a prompt as Claude Code sends it:");
  echo(["plugin/bin/git-kb", "hook", "prompt"], payloadFile);
  const hook = await run(launcher, ["hook", "prompt"], { stdin: payload });
  const context = JSON.parse(hook).hookSpecificOutput.additionalContext as string;
  console.log(`additionalContext: ${context.length} characters; pointer lines:`);
  console.log(context.split("\n").filter((line) => line.startsWith("- kb-")).join("\n"));
  console.log("\nThe same prompt again in the same session surfaces only the kernel rules:");
  const again = JSON.parse(
    await run(launcher, ["hook", "prompt"], { stdin: payload }),
  ).hookSpecificOutput.additionalContext as string;
  console.log(
    `pointer lines: ${again.split("\n").filter((line) => line.startsWith("- kb-")).length}`,
  );
  await gitKb("doctor", "--offline");
  console.log("\nDemo finished.");
} finally {
  Deno.removeSync(work, { recursive: true });
}
