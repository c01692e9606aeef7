/**
 * The user's record of accepted kernel rules (see core/kernel/acceptance.ts), kept beside the
 * config file in `$XDG_CONFIG_HOME/git-kb/kernel-accepted.json` (by default under `~/.config`),
 * 0600: per user, per machine, outside every knowledge base and outside the cache, which is
 * rebuildable and not trusted. The plugin's `CLAUDE_PLUGIN_DATA` is not used for it, since a
 * command the model runs may not see that variable and must find the same record as the hooks.
 *
 * A record that is not a regular file of this user's, writable by no one else, counts as
 * accepting nothing: a rule then waits for acceptance rather than apply on someone else's word.
 *
 * @module
 */
import {
  acceptedOnly,
  type AcceptedRules,
  type KernelRuleText,
  kernelState,
  parseAcceptedRules,
  type PendingMention,
  serializeAcceptedRules,
  withAccepted,
} from "../../core/kernel/acceptance.ts";
import type { IndexReader } from "../../core/index/reader.ts";
import { qualifyId } from "../../core/kbs/qualified.ts";
import { dirname, join } from "../../core/path.ts";
import { shellCommand } from "../../core/shell/quote.ts";
import { ifExists, PRIVATE_FILE_MODE, writeFileAtomic } from "../fs.ts";
import { xdgConfigFile } from "../paths.ts";
import { withLock } from "../save/lock.ts";

/** The largest record read: far above what thousands of accepted rules take. */
const MAX_BYTES = 1024 * 1024;

/** The record's file name, beside the XDG config file. */
const FILE_NAME = "kernel-accepted.json";

/** Raised when the record cannot be trusted or written; its message names the fix. */
export class AcceptanceRecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AcceptanceRecordError";
  }
}

/** The record's path, or undefined when neither XDG_CONFIG_HOME nor HOME is set. */
export function acceptanceFile(): string | undefined {
  const config = xdgConfigFile();
  return config ? join(dirname(config), FILE_NAME) : undefined;
}

/** Whether `info` belongs to another user than this process's. */
function othersOwn(info: Deno.FileInfo): boolean {
  const uid = Deno.uid();
  return uid !== null && info.uid !== null && info.uid !== uid;
}

/** Whether users other than the owner may write what `info` describes. */
function othersWrite(info: Deno.FileInfo): boolean {
  return info.mode !== null && (info.mode & 0o022) !== 0;
}

/** Why a file or folder that is not this user's alone to write is not trusted. */
function distrust(path: string, info: Deno.FileInfo): string | undefined {
  if (othersOwn(info)) return `${path} belongs to uid ${info.uid}, not to you (uid ${Deno.uid()})`;
  if (othersWrite(info)) {
    return `${path} can be written by other users (mode ${(info.mode! & 0o777).toString(8)})`;
  }
  return undefined;
}

/**
 * The accepted rules on record; none when there is no record yet. Throws
 * {@link AcceptanceRecordError} when the record is not a regular file of this user's that only
 * they can write, or is too large to be one git-kb wrote.
 */
export function readAcceptedRules(): AcceptedRules {
  const path = acceptanceFile();
  if (!path) return {};
  const info = ifExists(() => Deno.lstatSync(path));
  if (!info) return {};
  const problem = !info.isFile
    ? `${path} is not a regular file`
    : info.size > MAX_BYTES
    ? `${path} is ${info.size} bytes, more than git-kb ever writes there`
    : distrust(path, info) ?? distrust(dirname(path), Deno.statSync(dirname(path)));
  if (problem) {
    throw new AcceptanceRecordError(
      `${problem}, so no kernel rule counts as accepted; remove it (${
        shellCommand(["rm", path])
      }) and accept ` +
        "the rules again",
    );
  }
  try {
    return parseAcceptedRules(JSON.parse(Deno.readTextFileSync(path)));
  } catch (error) {
    if (error instanceof SyntaxError) return {};
    throw error;
  }
}

/**
 * The accepted rules on record, read only when `rules` has any to look up; none when the record
 * cannot be trusted, so that every rule then waits.
 */
function acceptedOrNone(rules: readonly KernelRuleText[]): AcceptedRules {
  if (!rules.length) return {};
  try {
    return readAcceptedRules();
  } catch (error) {
    if (error instanceof AcceptanceRecordError) return {};
    throw error;
  }
}

/**
 * The rules of `rules` that apply: those the user accepted as they read now. Reads the record
 * only when there are rules; a record that cannot be trusted accepts none.
 */
export function kernelInForce<R extends KernelRuleText>(rules: R[]): R[] {
  return rules.length ? acceptedOnly(acceptedOrNone(rules), rules) : rules;
}

/**
 * Whether `entry` is a kernel rule in force (active, `kernel: true`) that this user has not
 * accepted as it reads: a record that cannot be trusted accepts none.
 */
export function waitsForAcceptance(
  entry: KernelRuleText & { kernel: boolean; status: string },
): boolean {
  return entry.kernel && entry.status === "active" && kernelInForce([entry]).length === 0;
}

/**
 * `reader`, or when some of its kernel rules are not accepted, a reader of the same index that
 * lists only the accepted ones: what the hooks decide from. Reads the record only when the
 * index has kernel rules.
 */
export function readerInForce(reader: IndexReader): IndexReader {
  const { kernel } = reader.manifest;
  const inForce = kernelInForce(kernel);
  return inForce.length === kernel.length ? reader : reader.withKernel(inForce);
}

/**
 * The rules of `rules` waiting for acceptance, in their order, as a notice names them: ids
 * qualified with `name` when given (several knowledge bases are configured). Judged against
 * `accepted` when the caller has read the record already; else the record is read, and one that
 * cannot be trusted leaves every rule waiting.
 */
export function pendingMentions(
  rules: readonly KernelRuleText[],
  name?: string,
  accepted: AcceptedRules = acceptedOrNone(rules),
): PendingMention[] {
  return rules.flatMap((rule) => {
    const state = kernelState(accepted, rule);
    if (state === "accepted") return [];
    return [{
      id: name === undefined ? rule.id : qualifyId(name, rule.id),
      title: rule.title,
      state,
    }];
  });
}

/**
 * Record `rules`, as they read now, as accepted. Read, changed and written under a lock beside
 * the record, so concurrent saves keep each other's acceptances; the file is replaced
 * atomically, 0600. Throws {@link AcceptanceRecordError} when there is nowhere to write it or
 * the record there cannot be trusted.
 */
export async function acceptKernelRules(rules: readonly KernelRuleText[]): Promise<void> {
  if (!rules.length) return;
  const path = acceptanceFile();
  if (!path) {
    throw new AcceptanceRecordError(
      "there is no config folder to record accepted kernel rules in: set HOME or XDG_CONFIG_HOME",
    );
  }
  await withLock(`${path}.lock`, () => {
    const folder = ifExists(() => Deno.statSync(dirname(path)));
    if (folder && !othersOwn(folder) && othersWrite(folder)) Deno.chmodSync(dirname(path), 0o700);
    let accepted: AcceptedRules;
    try {
      accepted = readAcceptedRules();
    } catch (error) {
      if (!(error instanceof AcceptanceRecordError)) throw error;
      if (ifExists(() => Deno.lstatSync(path))?.isFile !== true) throw error;
      accepted = {};
    }
    writeFileAtomic(path, serializeAcceptedRules(withAccepted(accepted, rules)), {
      mode: PRIVATE_FILE_MODE,
    });
  }, { timeoutMs: 10_000 });
}
