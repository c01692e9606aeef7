/**
 * `deno task test:e2e`: install the real Claude Code CLI from npm into a cache folder under the
 * temp dir (once per version), then run the end-to-end tests in this folder with `CLAUDE_CLI`
 * pointing at it, once for each release in {@link CLAUDE_CODE_VERSIONS}. Those tests are skipped
 * (not failed) by `deno task test`, which sets no `CLAUDE_CLI`; with `CLAUDE_CLI` set, they run
 * once against that binary. Then, once more, with `CODEX_CLI` and `GEMINI_CLI` set to the Codex
 * and Gemini CLI releases {@link CODEX_VERSION} and {@link GEMINI_CLI_VERSION} (installed the same
 * way unless those variables are set), for `git-kb setup`'s wiring into those agents
 * (agents_e2e_test.ts). Nothing in them reaches the network: the CLIs are only installed from
 * npm here.
 *
 * @module
 */
import { join } from "../../core/path.ts";

/**
 * The Claude Code releases the end-to-end tests run against: the one they were written against
 * and the newest checked since. A user installs the newest release, so a change of the client's
 * behaviour shows here first; the tests say where the two releases differ.
 */
export const CLAUDE_CODE_VERSIONS = ["2.1.197", "2.1.332"] as const;

/** The Codex CLI release `git-kb setup --agent codex` was checked against (agents_e2e_test.ts). */
export const CODEX_VERSION = "0.171.0";

/** The Gemini CLI release `git-kb setup --agent gemini` was checked against. */
export const GEMINI_CLI_VERSION = "0.61.0";

async function run(command: string, args: string[], env: Record<string, string> = {}) {
  const child = new Deno.Command(command, { args, env, stdin: "null" }).spawn();
  return (await child.status).code;
}

/** The binary `bin` of npm package `name` at `version`, installing it first when missing. */
async function installCli(name: string, version: string, bin: string): Promise<string> {
  const prefix = join(Deno.env.get("TMPDIR") || "/tmp", `git-kb-e2e-${bin}-${version}`);
  const path = join(prefix, "node_modules", ".bin", bin);
  try {
    Deno.statSync(path);
    return path;
  } catch { /* not installed yet */ }
  console.error(`installing ${name}@${version} into ${prefix}`);
  const code = await run("npm", [
    "install",
    "--silent",
    "--no-audit",
    "--no-fund",
    "--prefix",
    prefix,
    `${name}@${version}`,
  ]);
  if (code !== 0) throw new Error(`npm install of ${name}@${version} failed (exit ${code})`);
  return path;
}

if (import.meta.main) {
  const given = Deno.env.get("CLAUDE_CLI");
  const folder = new URL(".", import.meta.url).pathname;
  let status = 0;
  for (const version of given ? [undefined] : CLAUDE_CODE_VERSIONS) {
    const claude = given ?? await installCli("@anthropic-ai/claude-code", version!, "claude");
    console.error(`end-to-end tests against ${version ? `Claude Code ${version}` : claude}`);
    const code = await run("deno", ["test", "--allow-all", "--no-prompt", folder, ...Deno.args], {
      CLAUDE_CLI: claude,
    });
    if (code !== 0) status = code;
  }
  // The other agents once, in a run of their own: there the Claude Code tests are skipped.
  const agents = {
    CODEX_CLI: Deno.env.get("CODEX_CLI") ??
      await installCli("@openai/codex", CODEX_VERSION, "codex"),
    GEMINI_CLI: Deno.env.get("GEMINI_CLI") ??
      await installCli("@google/gemini-cli", GEMINI_CLI_VERSION, "gemini"),
  };
  console.error(`end-to-end tests against ${agents.CODEX_CLI} and ${agents.GEMINI_CLI}`);
  const code = await run(
    "deno",
    ["test", "--allow-all", "--no-prompt", join(folder, "agents_e2e_test.ts"), ...Deno.args],
    agents,
  );
  Deno.exit(code !== 0 ? code : status);
}
