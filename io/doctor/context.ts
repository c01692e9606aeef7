/**
 * What `git-kb doctor`'s checks share: the {@link DoctorContext} each is given, the shape of a
 * {@link Check}, and how a finding names its fix. The checks: `checks.ts` (and the ones it
 * lists from `git_checks.ts` and `entry_checks.ts`).
 *
 * @module
 */
import type { Finding } from "../../core/setup/finding.ts";
import type { KbLocation } from "../config.ts";
import { type OpenIndex, openIndex } from "../index/store.ts";
import { repairableEntries, type RepairableEntry } from "../repairs.ts";

/** What a check is given: the knowledge base, how it was found, and the index on demand. */
export interface DoctorContext {
  /** The knowledge base and the source that named it. */
  location: KbLocation;
  /** The knowledge base's folder. */
  kbDir: string;
  /** Skip everything that touches the network. */
  offline: boolean;
  /** The index, brought up to date on first call (every file checked), then the same one. */
  index(): Promise<OpenIndex>;
  /** The entries served only through a repair, read on first call, then the same list. */
  repairable(): Promise<RepairableEntry[]>;
}

/** One check: findings about one part of the setup. */
export type Check = (context: DoctorContext) => Finding[] | Promise<Finding[]>;

/** `text`, then the command that fixes it. */
export function withFix(text: string, command: string): string {
  return `${text}; fix: ${command}`;
}

/** The context of the checks of one knowledge base; the index and repairs read once each. */
export function doctorContext(location: KbLocation, offline: boolean): DoctorContext {
  let index: Promise<OpenIndex> | undefined;
  let repairable: Promise<RepairableEntry[]> | undefined;
  return {
    location,
    kbDir: location.kbDir,
    offline,
    index: () => index ??= openIndex(location.kbDir),
    repairable: () => repairable ??= repairableEntries(location.kbDir),
  };
}
