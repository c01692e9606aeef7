/**
 * The one entry point of the plugin's bundle (`plugin/bin/git-kb.js`): `hook <event>` runs a
 * hook, anything else runs the CLI. Both load lazily, so a hook never evaluates the CLI's
 * commands and a command never evaluates a hook.
 *
 * @module
 */
import { HOOKS, isHook } from "./registry.ts";

/** Run `args` as a hook or a CLI command and return the exit code; hooks always give 0. */
export async function launch(args: string[]): Promise<number> {
  if (args[0] !== "hook") return await (await import("./main.ts")).main(args);
  const name = args[1];
  if (!isHook(name)) {
    console.error(
      `git-kb: unknown hook "${name ?? ""}"; known: ${Object.keys(HOOKS).join(", ")}`,
    );
    return 0;
  }
  try {
    await (await HOOKS[name].load())();
  } catch { /* a hook fails open */ }
  return 0;
}

if (import.meta.main) Deno.exit(await launch(Deno.args));
