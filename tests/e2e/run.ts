/**
 * `deno task test:e2e`: install the real Claude Code CLI from npm into a cache folder under the
 * temp dir (once per version), then run the end-to-end tests in this folder with `CLAUDE_CLI`
 * pointing at it. Those tests are skipped (not failed) by `deno task test`, which sets no
 * `CLAUDE_CLI`. Nothing in them reaches the network: the CLI is only installed from npm here.
 *
 * @module
 */
import { join } from "../../core/path.ts";

/** The Claude Code release the end-to-end tests were written against. */
export const CLAUDE_CODE_VERSION = "2.1.197";

async function run(command: string, args: string[], env: Record<string, string> = {}) {
  const child = new Deno.Command(command, { args, env, stdin: "null" }).spawn();
  return (await child.status).code;
}

/** The installed `claude` binary, installing it first when missing. */
async function installClaude(): Promise<string> {
  const given = Deno.env.get("CLAUDE_CLI");
  if (given) return given;
  const prefix = join(Deno.env.get("TMPDIR") || "/tmp", `git-kb-e2e-claude-${CLAUDE_CODE_VERSION}`);
  const bin = join(prefix, "node_modules", ".bin", "claude");
  try {
    Deno.statSync(bin);
    return bin;
  } catch { /* not installed yet */ }
  console.error(`installing @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} into ${prefix}`);
  const code = await run("npm", [
    "install",
    "--silent",
    "--no-audit",
    "--no-fund",
    "--prefix",
    prefix,
    `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`,
  ]);
  if (code !== 0) throw new Error(`npm install of the Claude Code CLI failed (exit ${code})`);
  return bin;
}

if (import.meta.main) {
  const claude = await installClaude();
  const folder = new URL(".", import.meta.url).pathname;
  Deno.exit(
    await run("deno", ["test", "--allow-all", "--no-prompt", folder, ...Deno.args], {
      CLAUDE_CLI: claude,
    }),
  );
}
