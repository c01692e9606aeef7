/**
 * The SessionStart hook's decisions, pure: what a session start asks for (its `source`), what a
 * knowledge base ahead of or behind its upstream allows a fast-forward pull to do, and how the
 * kernel rules are introduced when they come back after a compaction.
 *
 * @module
 */
import type { HookPayload } from "./payload.ts";
import type { Wording } from "../prompt/decision.ts";

/** Why a session started, as Claude Code's SessionStart payload names it in `source`. */
export type SessionSource = "startup" | "resume" | "clear" | "compact";

const SOURCES: ReadonlySet<string> = new Set(["startup", "resume", "clear", "compact"]);

/** The payload's `source`, or undefined when it is missing or not one Claude Code sends. */
export function sessionSource(payload: HookPayload): SessionSource | undefined {
  const source = payload.source;
  return typeof source === "string" && SOURCES.has(source) ? source as SessionSource : undefined;
}

/**
 * The SessionStart hook's jobs: pull the knowledge base (in the background), restore the kernel
 * rules, or say how to connect a knowledge base (both in the foreground, for the session to read).
 */
export type SessionWork = "pull" | "kernel" | "welcome";

/** What the hook does for a source: pull (a new or resumed session), restore the kernel rules. */
export function sessionWork(source: SessionSource | undefined): SessionWork | undefined {
  if (source === "startup" || source === "resume") return "pull";
  return source === "compact" ? "kernel" : undefined;
}

/**
 * What the foreground handler (the one the session waits for) does for a source: the kernel
 * rules after a compaction, and at a startup the welcome of a machine with no knowledge base.
 */
export function foregroundWork(source: SessionSource | undefined): SessionWork | undefined {
  if (source === "startup") return "welcome";
  return source === "compact" ? "kernel" : undefined;
}

/**
 * What the first session on a machine with git-kb installed and no knowledge base connected is
 * told, once: a line for the user (`systemMessage`) and the same facts for the model, with the
 * commands that connect one, spelled with `init` (the command that runs git-kb's `init`).
 */
export function welcomeOutput(init: string): string {
  const how = `To connect one, run \`${init} <clone-url>\` to clone your knowledge base repo ` +
    `(or a local folder to use or create), or \`${init}\` to start a new one.`;
  return JSON.stringify({
    systemMessage: `git-kb is installed, but no knowledge base is connected yet. ${how} ` +
      "(Said once on this machine.)",
    hookSpecificOutput: {
      hookEventName: "SessionStart",
      additionalContext: "git-kb (the knowledge base plugin) is installed, but no knowledge base " +
        `is connected on this machine, so it has nothing to surface. ${how}`,
    },
  });
}

/** Commits on each side of HEAD and its upstream. */
export interface Divergence {
  /** Commits on HEAD that the upstream lacks. */
  ahead: number;
  /** Commits on the upstream that HEAD lacks. */
  behind: number;
}

/**
 * What a fast-forward-only pull may do: nothing new (`up-to-date`, or only local commits:
 * `ahead`, left for the next save to push), commits on both sides (`diverged`: only a rebase
 * would join them, and that is `git-kb sync`'s to do), or move the branch (`fast-forward`).
 *
 * @example
 * ```ts
 * pullStep({ ahead: 0, behind: 3 }); // "fast-forward"
 * pullStep({ ahead: 1, behind: 3 }); // "diverged"
 * ```
 */
export function pullStep(
  { ahead, behind }: Divergence,
): "up-to-date" | "ahead" | "diverged" | "fast-forward" {
  if (behind === 0) return ahead === 0 ? "up-to-date" : "ahead";
  return ahead === 0 ? "fast-forward" : "diverged";
}

/**
 * Divergence from `git rev-list --left-right --count HEAD...@{u}` (`<ahead>\t<behind>`), or
 * undefined when the text is not two counts.
 */
export function parseDivergence(text: string): Divergence | undefined {
  const counts = text.trim().split(/\s+/);
  if (counts.length !== 2 || !counts.every((count) => /^\d+$/.test(count))) return undefined;
  return { ahead: Number(counts[0]), behind: Number(counts[1]) };
}

/**
 * How the kernel rules are introduced after a compaction, when the summary has dropped what the
 * prompt hook injected: as the plain fact of what they are.
 */
export const COMPACT_WORDING: Wording = {
  header: "git-kb: the rules from the user's knowledge base that always apply, restored after " +
    "the conversation was compacted.",
  pointers: "Rules too long to restore whole (fetch before relying on them):",
};
