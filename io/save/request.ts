/**
 * What the save pipeline is asked to do (a change set of entries to write or delete, or one
 * entry) and what it reports having done.
 *
 * @module
 */
import type { Entry } from "../../core/entry/entry.ts";
import type { RefreshReport } from "../index/store.ts";
import type { AttachmentFile } from "./attachments.ts";

/**
 * What happened to the commit after it was made; `held`: not pushed yet, by request (`push:
 * false`), for the batch it is part of to push once ({@link ChangesRequest.push}).
 */
export type PushOutcome = "pushed" | "rebased-and-pushed" | "NO_REMOTE" | "held";

/** What a save of one entry did. */
export interface SaveResult {
  /** The entry's id. */
  id: string;
  /** Path of the entry file relative to the knowledge base. */
  path: string;
  /** The commit on the branch (after a rebase, the rebased one); "" when nothing changed. */
  commit: string;
  /** Whether the commit was pushed, pushed after a rebase, or there is no remote. */
  push: PushOutcome;
  /**
   * What bringing the index up to date after the save did; undefined when that failed (the save
   * stands: a warning says why and how to rebuild the index).
   */
  index?: RefreshReport;
  /** One line each: what the user should know although the save worked (fallback identity…). */
  warnings: string[];
}

/** What a save of a change set did. */
export interface ChangesResult extends Omit<SaveResult, "id" | "path"> {
  /** The paths written or deleted. */
  paths: string[];
}

/** One file of a change set: an entry to write, or (without `entry`) a file to delete. */
export interface Change {
  /** Path relative to the knowledge base, `entries/<id>-<slug>.md`. */
  path: string;
  /** The entry to write; undefined deletes the file. */
  entry?: Entry;
  /**
   * The file's text as it was read, for an edit or a delete: a file that changed since is
   * refused, never overwritten. Undefined for a new file, which must not exist yet.
   */
  previousText?: string;
}

/** Several files written or deleted in one commit. */
export interface ChangesRequest {
  /** The knowledge base folder, a git work tree. */
  kbDir: string;
  /** What `git log` will say. */
  message: string;
  /** The files to write or delete. */
  changes: Change[];
  /** Bound of each git call that reaches the remote; `networkTimeoutMs()` (45 s) by default. */
  networkTimeoutMs?: number;
  /**
   * Keep the credentials the entries hold (`--allow-secret`) instead of refusing them: honoured
   * in a private knowledge base only (see io/kb_settings.ts); the save warns of each one kept.
   */
  allowSecret?: boolean;
  /** Files that are not entries, written and committed with them (an import's attachments). */
  files?: readonly AttachmentFile[];
  /**
   * `false`: commit and reindex, but leave the push to the caller, who saves several entries
   * and pushes them at once with `pushSaved` (io/save/save.ts); pushed at once by default.
   */
  push?: boolean;
}

/** An entry to write: new (path chosen from id and slug) or a replacement of `previousText`. */
export interface SaveRequest extends Omit<ChangesRequest, "changes"> {
  /** The entry to write. */
  entry: Entry;
  /** Path relative to the knowledge base, `entries/<id>-<slug>.md`. */
  path: string;
  /** For an edit: the file's text as it was read, to detect a concurrent change. */
  previousText?: string;
  /** How the user keeps a credential, for a caller without `--allow-secret` (see validate.ts). */
  keepSecret?: string;
  /** What finds an entry's id, for a caller that is no shell (see validate.ts). */
  findIds?: string;
  /**
   * The entry holds someone else's words (a proposal accepted with `git-kb review`): a kernel
   * rule saved waits for `git-kb kernel --accept`, as a teammate's does, instead of being
   * accepted as saved.
   */
  othersWords?: boolean;
}
