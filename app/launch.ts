/**
 * The one entry point of the plugin's bundle (`plugin/bin/git-kb.js`): `hook <event>` runs a
 * hook, anything else runs the CLI. Both load lazily, so a hook never evaluates the CLI's
 * commands and a command never evaluates a hook.
 *
 * @module
 */

/** The hooks by the name the launcher is given (`git-kb hook prompt`). */
const HOOKS: Record<string, () => Promise<() => Promise<void>>> = {
  prompt: async () => (await import("../hooks/prompt.ts")).runPromptHook,
  judge: async () => (await import("../hooks/judge.ts")).runJudgeHook,
  search: async () => (await import("../hooks/search_augment.ts")).runSearchHook,
  subagent: async () => (await import("../hooks/subagent.ts")).runSubagentHook,
  receipts: async () => (await import("../hooks/receipts.ts")).runReceiptsHook,
};

/** Run `args` as a hook or a CLI command and return the exit code; hooks always give 0. */
export async function launch(args: string[]): Promise<number> {
  if (args[0] !== "hook") return await (await import("../cli/main.ts")).main(args);
  const load = HOOKS[args[1]];
  if (!load) {
    console.error(
      `git-kb: unknown hook "${args[1] ?? ""}"; known: ${Object.keys(HOOKS).join(", ")}`,
    );
    return 0;
  }
  try {
    await (await load())();
  } catch { /* a hook fails open */ }
  return 0;
}

if (import.meta.main) Deno.exit(await launch(Deno.args));
