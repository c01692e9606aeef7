/**
 * `deno task test:e2e`: install the real Claude Code CLI from npm into a cache folder under the
 * temp dir (once per version), then run the end-to-end tests in this folder with `CLAUDE_CLI`
 * pointing at it, once for each release in {@link CLAUDE_CODE_VERSIONS}. Those tests are skipped
 * (not failed) by `deno task test`, which sets no `CLAUDE_CLI`; with `CLAUDE_CLI` set, they run
 * once against that binary. Nothing in them reaches the network: the CLI is only installed from
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

async function run(command: string, args: string[], env: Record<string, string> = {}) {
  const child = new Deno.Command(command, { args, env, stdin: "null" }).spawn();
  return (await child.status).code;
}

/** The `claude` binary of `version`, installing it first when missing. */
async function installClaude(version: string): Promise<string> {
  const prefix = join(Deno.env.get("TMPDIR") || "/tmp", `git-kb-e2e-claude-${version}`);
  const bin = join(prefix, "node_modules", ".bin", "claude");
  try {
    Deno.statSync(bin);
    return bin;
  } catch { /* not installed yet */ }
  console.error(`installing @anthropic-ai/claude-code@${version} into ${prefix}`);
  const code = await run("npm", [
    "install",
    "--silent",
    "--no-audit",
    "--no-fund",
    "--prefix",
    prefix,
    `@anthropic-ai/claude-code@${version}`,
  ]);
  if (code !== 0) throw new Error(`npm install of the Claude Code CLI failed (exit ${code})`);
  return bin;
}

if (import.meta.main) {
  const given = Deno.env.get("CLAUDE_CLI");
  const folder = new URL(".", import.meta.url).pathname;
  let status = 0;
  for (const version of given ? [undefined] : CLAUDE_CODE_VERSIONS) {
    const claude = given ?? await installClaude(version!);
    console.error(`end-to-end tests against ${version ? `Claude Code ${version}` : claude}`);
    const code = await run("deno", ["test", "--allow-all", "--no-prompt", folder, ...Deno.args], {
      CLAUDE_CLI: claude,
    });
    if (code !== 0) status = code;
  }
  Deno.exit(status);
}
