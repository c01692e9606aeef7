/**
 * Which kernel rules this user accepted, pure. A kernel rule goes into every prompt verbatim,
 * and a knowledge base shared with others brings rules the user never wrote: a rule applies only
 * once the user accepted it, by id and content, so a later edit of its title or body waits for
 * acceptance again. The record of what was accepted lives in the user's config folder, never in
 * the knowledge base or the cache (see io/kernel/acceptance.ts).
 *
 * @module
 */
import { contentHash } from "../hash.ts";
import { displaySafe } from "../text/display.ts";

/** What of a kernel rule reaches a prompt, and so what an acceptance covers. */
export interface KernelRuleText {
  /** The rule's entry id. */
  id: string;
  /** Its title, on the heading line. */
  title: string;
  /** Its body, inlined whole. */
  body: string;
  /** {@link kernelRuleHash} of the rule, when worked out beforehand (the index records it). */
  ruleHash?: string;
}

/** The accepted rules: entry id → the hashes ({@link kernelRuleHash}) of accepted contents. */
export type AcceptedRules = Record<string, string[]>;

/** How many accepted contents are kept per id: the latest ones. */
const KEPT_PER_ID = 8;

/** Whether a rule applies, and if not, whether it is new to this user or changed since. */
export type KernelState = "accepted" | "new" | "changed";

/**
 * The hash that stands for a rule's content: its title and its body as injected (trimmed).
 *
 * @example
 * ```ts
 * kernelRuleHash({ id: "kb-7q2mx", title: "Commits", body: "Sign them.\n" }) ===
 *   kernelRuleHash({ id: "kb-7q2mx", title: "Commits", body: "Sign them." }); // true
 * ```
 */
export function kernelRuleHash(rule: KernelRuleText): string {
  return contentHash(`${rule.title}\n${rule.body.trim()}`);
}

/** {@link kernelRuleHash} of `rule`: the one the index recorded, else worked out now. */
export function ruleHashOf(rule: KernelRuleText): string {
  return rule.ruleHash ?? kernelRuleHash(rule);
}

/** Accepted rules as read from a file written by any version, or by hand: what is sound in it. */
export function parseAcceptedRules(value: unknown): AcceptedRules {
  const accepted: AcceptedRules = {};
  const rules = (value as { rules?: unknown } | null)?.rules;
  if (typeof rules !== "object" || rules === null || Array.isArray(rules)) return accepted;
  for (const [id, hashes] of Object.entries(rules)) {
    if (!Array.isArray(hashes)) continue;
    const sound = hashes.filter((hash) => typeof hash === "string" && /^[0-9a-f]{16}$/.test(hash));
    if (sound.length) accepted[id] = sound.slice(-KEPT_PER_ID);
  }
  return accepted;
}

/** The file's contents for `accepted`. */
export function serializeAcceptedRules(accepted: AcceptedRules): string {
  return `${JSON.stringify({ version: 1, rules: accepted }, null, 2)}\n`;
}

/** Whether `rule`, as it reads now, applies: new, changed since accepted, or accepted. */
export function kernelState(accepted: AcceptedRules, rule: KernelRuleText): KernelState {
  const hashes = Object.hasOwn(accepted, rule.id) ? accepted[rule.id] : undefined;
  if (!hashes) return "new";
  return hashes.includes(ruleHashOf(rule)) ? "accepted" : "changed";
}

/** The rules of `rules` that apply: those accepted as they read now, in their order. */
export function acceptedOnly<R extends KernelRuleText>(accepted: AcceptedRules, rules: R[]): R[] {
  return rules.filter((rule) => kernelState(accepted, rule) === "accepted");
}

/** `accepted` with the contents of `rules` as they read now added (the latest kept per id). */
export function withAccepted(
  accepted: AcceptedRules,
  rules: readonly KernelRuleText[],
): AcceptedRules {
  const next: AcceptedRules = { ...accepted };
  for (const rule of rules) {
    const hash = kernelRuleHash(rule);
    const earlier = (Object.hasOwn(next, rule.id) ? next[rule.id] : []).filter((h) => h !== hash);
    next[rule.id] = [...earlier, hash].slice(-KEPT_PER_ID);
  }
  return next;
}

/** A rule waiting for acceptance, as a notice names it: its id as typed, title and state. */
export interface PendingMention {
  /** Its id as the accept command takes it (`team:kb-7q2mx` where several are configured). */
  id: string;
  /** Its title. */
  title: string;
  /** New to this user, or changed since they accepted it. */
  state: "new" | "changed";
}

/**
 * What waits for acceptance, in one line: how many rules, each by id, title and state.
 *
 * @example
 * ```ts
 * pendingSummary([{ id: "kb-7q2mx", title: "Sign commits", state: "new" }]);
 * // 'a kernel rule waits for your acceptance and applies to no prompt until then:
 * //  kb-7q2mx "Sign commits" (new)' (one line)
 * ```
 */
export function pendingSummary(pending: readonly PendingMention[]): string {
  const named = pending.map(({ id, title, state }) =>
    `${id} "${displaySafe(title)}" (${state === "new" ? "new" : "changed since you accepted it"})`
  );
  const one = pending.length === 1;
  return `${one ? "a kernel rule waits" : `${pending.length} kernel rules wait`} for your ` +
    `acceptance and ${one ? "applies" : "apply"} to no prompt until then: ${named.join(", ")}`;
}

/**
 * {@link pendingSummary} as a sentence, with the command that reviews the rules (`review`, as it
 * must be typed).
 */
export function pendingNotice(pending: readonly PendingMention[], review: string): string {
  const summary = pendingSummary(pending);
  return `${summary[0].toUpperCase()}${summary.slice(1)}. Review ${
    pending.length === 1 ? "it" : "them"
  }: ${review}`;
}
