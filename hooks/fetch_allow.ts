/**
 * Claude Code PreToolUse hook for Bash: fetching is free. When the command only fetches
 * knowledge-base entries the way the hooks print it (core/delivery/free_fetch.ts), the hook
 * allows it, so the agent reads a pointer's entry without an approval prompt; for any other
 * command it prints nothing and the client's own permission flow decides. Exit 0 always: any
 * failure means no output, which allows nothing.
 *
 * @module
 */
import { type HookPayload, textField } from "../core/hook/payload.ts";
import {
  isFreeFetch,
  launcherOf,
  MAX_FETCH_LINE,
  plainBashCommand,
} from "../core/delivery/free_fetch.ts";
import { isWithin } from "../core/path.ts";
import { relativeKbDir, resolveKbs } from "../io/config.ts";
import { realPathOr } from "../io/disk.ts";
import { runHookOnStdio } from "../io/hook/stdin.ts";
import { selfCommand } from "../io/self_command.ts";

/** The largest stdin accepted: a fetch line and the payload's other fields fit well within it. */
const MAX_INPUT_BYTES = 4 * MAX_FETCH_LINE;

/** Why the call runs without asking, as the client shows it. */
export const ALLOW_REASON = "git-kb: this command only prints knowledge-base entries (get)";

/**
 * Whether the launcher lies in the session's folder or below it (the payload's `cwd`, or the
 * hook's own, which Claude Code starts in the project), symbolic links resolved. There the agent
 * may edit files without asking, the launcher and the bundle beside it that it runs among them (the
 * plugin run in place from a checkout the session works in), so a fetch would run what it wrote. A
 * launcher of one bare name (`git-kb`) is found on PATH, not in a folder: it is not checked.
 */
function inSessionFolder(launcher: string, payload: HookPayload): boolean {
  if (!launcher.includes("/")) return false;
  const real = realPathOr(launcher);
  const folders = [textField(payload, "cwd"), Deno.cwd()].filter((folder) => folder !== undefined);
  return folders.some((folder) => isWithin(real, realPathOr(folder)));
}

/**
 * The hook's stdout for a payload: an allow decision for a free fetch, else "". Throws
 * `NotConfiguredError` when no knowledge base is configured (then nothing is free either).
 */
export function fetchHookOutput(payload: HookPayload): string {
  const command = plainBashCommand(payload.tool_input);
  const launcher = launcherOf(selfCommand());
  if (textField(payload, "tool_name") !== "Bash" || command === undefined || !launcher) {
    return "";
  }
  const { kbs, source } = resolveKbs();
  // A relative KB_DIR names another folder wherever the model's shell has moved to: passed on as
  // set, for isFreeFetch to refuse every fetch.
  const relative = relativeKbDir(source);
  const kbDirs = relative !== undefined ? [relative] : kbs.map((kb) => kb.kbDir);
  // The command first; the folders' real paths only for a fetch line.
  if (!isFreeFetch(command, { launcher, kbDirs }) || inSessionFolder(launcher, payload)) return "";
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "allow",
      permissionDecisionReason: ALLOW_REASON,
    },
  });
}

/**
 * Run the hook on this process's stdin and stdout. Never throws; a failure prints nothing and
 * leaves no record (the hook may write nowhere).
 */
export function runFetchHook(): Promise<void> {
  return runHookOnStdio(
    MAX_INPUT_BYTES,
    (payload) => Promise.resolve(fetchHookOutput(payload)),
    () => {},
  );
}

if (import.meta.main) {
  await runFetchHook();
  Deno.exit(0);
}
