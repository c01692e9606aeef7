/**
 * How `git-kb selftest` starts the real CLI and hook as subprocesses, with the permission flags
 * of `app/permissions.ts`: from the bundle when it runs from the plugin (`plugin/bin/git-kb.js`,
 * with `--no-config` as the launcher passes), from `app/launch.ts` in a checkout. Which one is
 * told by this module's own URL: in the bundle every module's `import.meta.url` is the bundle's.
 *
 * @module
 */
import { join } from "../core/path.ts";
import { flagsFor, hookFlags } from "./permissions.ts";
import { cacheRoot, cacheRootFor } from "../io/paths.ts";
import { type ProcessOutput, runProcess, startDetached } from "../io/process.ts";
import type { KbCli, SelfLauncher } from "../io/selftest/run.ts";
import { envVar } from "../io/env.ts";

/** Where the CLI's code comes from. */
export interface SelfEntry {
  /** `bundle`: the plugin's single file; `sources`: a checkout's `app/launch.ts`. */
  kind: "bundle" | "sources";
  /** The file `deno run` starts. */
  path: string;
  /** Flags every run needs besides the permissions. */
  flags: string[];
}

/** The entry point of the code this module belongs to. */
export function selfEntry(moduleUrl: string = import.meta.url): SelfEntry {
  const url = new URL(moduleUrl);
  if (url.protocol !== "file:") {
    throw new Error(
      `selftest runs from a file, not from ${url.href}; run it from the plugin or a checkout`,
    );
  }
  if (url.pathname.endsWith(".js")) {
    return {
      kind: "bundle",
      path: decodeURIComponent(url.pathname),
      flags: ["--quiet", "--no-config"],
    };
  }
  const root = decodeURIComponent(new URL("..", url).pathname).replace(/\/$/, "");
  return {
    kind: "sources",
    path: join(root, "app", "launch.ts"),
    flags: ["--quiet", `--config=${join(root, "deno.json")}`],
  };
}

/** How long one subprocess may take before it is killed and its task fails. */
export const CHILD_TIMEOUT_MS = 60_000;

/** Runs git-kb commands and hooks as subprocesses in a given environment. */
export class SelfCli implements KbCli {
  readonly entry: SelfEntry;
  readonly #env: Record<string, string>;
  readonly #cwd: string;

  /**
   * @param env What the children's environment changes (it is inherited otherwise); with what
   * it inherits, it decides the cache root that the permission flags grant.
   * @param cwd The children's working folder.
   */
  constructor(entry: SelfEntry, env: Record<string, string>, cwd: string) {
    this.entry = entry;
    this.#env = env;
    this.#cwd = cwd;
  }

  /**
   * `deno run` of the entry point: with the Deno the plugin's launcher found (`KB_DENO`, which
   * the selftest profile may run), else `deno` on PATH.
   */
  #deno(flags: string[], args: string[], stdin?: string): Promise<ProcessOutput> {
    const deno = envVar("KB_DENO") || "deno";
    return runProcess(deno, ["run", ...this.entry.flags, ...flags, this.entry.path, ...args], {
      cwd: this.#cwd,
      env: this.#env,
      stdin,
      timeoutMs: CHILD_TIMEOUT_MS,
    });
  }

  /** The children's cache root. */
  #cacheRoot(): string {
    return cacheRootFor((name) => this.#env[name] ?? Deno.env.get(name), Deno.uid());
  }

  /** `git-kb <args>` with the flags of the command's profile. */
  command(args: string[]): Promise<ProcessOutput> {
    return this.#deno(flagsFor(args[0], this.#cacheRoot()), args);
  }

  /** `git-kb hook <name>` with the hook's profile, `payload` on stdin. */
  hook(name: string, payload: string): Promise<ProcessOutput> {
    return this.#deno(hookFlags(name, this.#cacheRoot()), ["hook", name], payload);
  }
}

/** The {@link SelfLauncher} of the code this module belongs to, for the selftest command. */
export function selfLauncher(): SelfLauncher {
  const entry = selfEntry();
  return { entry, cliFor: (env, cwd) => new SelfCli(entry, env, cwd) };
}

/**
 * Start `git-kb hook <name>` detached (a session of its own, not waited for), with the hook's
 * profile and `stdin`: how the capture hook hands its work to the capture worker and returns at
 * once. The Deno run is the one the plugin's launcher found (`KB_DENO`, which the capture hook's
 * profile may run), else `deno` on PATH; the model binary is the judge's (`KB_PROSE_LINT_CLAUDE`).
 */
export async function startHookDetached(name: string, stdin: string): Promise<void> {
  const entry = selfEntry();
  const deno = envVar("KB_DENO") || "deno";
  const claude = envVar("KB_PROSE_LINT_CLAUDE")?.trim() || "claude";
  const flags = hookFlags(name, cacheRoot(), { claude });
  await startDetached(deno, ["run", ...entry.flags, ...flags, entry.path, "hook", name], stdin);
}
