/**
 * Which knowledge base a command that changes an entry works in: the one `--to` names, the one
 * an id's `name:` prefix names (the two naming different ones is a usage error), else the one
 * configured knowledge base that holds the id (refused when several do, or none of several).
 *
 * @module
 */
import { EXIT, KbError } from "../../core/exit.ts";
import { splitQualifiedId } from "../../core/kbs/qualified.ts";
import { isConfigFile, type KbLocation, resolveKbNamed, resolveKbs } from "../config.ts";
import { NotAKbError } from "../kb.ts";
import { entryPaths } from "../save/entry_files.ts";
import { selfCommand } from "../self_command.ts";

/** An entry's knowledge base and its plain id. */
export interface LocatedEntry {
  /** The knowledge base. */
  location: KbLocation;
  /** The entry id without a `name:` prefix. */
  id: string;
}

/** Raised when two configured knowledge bases hold the id and none was named. */
export class AmbiguousIdError extends Error {
  constructor(id: string, names: string[], command: (qualified: string) => string) {
    super(
      `${id} is in ${names.length} knowledge bases (${names.join(", ")}); name one: ` +
        names.map((name) => command(`${name}:${id}`)).join(" or "),
    );
    this.name = "AmbiguousIdError";
  }
}

/** How {@link locateEntry} finds the knowledge base, and the words its refusals use. */
export interface LocateOptions {
  /** The knowledge base named to hold the entry (`--to`, the MCP tool's `to`). */
  to?: string;
  /** The command's `--kb` (the MCP server's). */
  kb?: string;
  /** The command line (or tool call) to run with a qualified id, for when two hold the id. */
  command: (qualified: string) => string;
  /** What the caller calls `to`: `--to` (the default), `the to argument`. */
  toName?: string;
  /** What finds ids: `git-kb search <words>` (the default), `the search tool`. */
  findIds?: string;
}

/**
 * The knowledge base of entry `typed` (an id or `name:id`); see the module notes. Each refusal
 * names what to do in the caller's own terms (`options`).
 */
export function locateEntry(typed: string, options: LocateOptions): LocatedEntry {
  const { kb: named, id } = splitQualifiedId(typed);
  if (options.to !== undefined && named !== undefined && named !== options.to) {
    throw new KbError(
      `${typed} names the knowledge base ${named} and ${options.toName ?? "--to"} names ` +
        `${options.to}; give one of them`,
      EXIT.usage,
    );
  }
  if (options.to !== undefined || named !== undefined) {
    return { location: resolveKbNamed(options.to ?? named, options.kb), id };
  }
  const { kbs, source } = resolveKbs(options.kb);
  const holding = kbs.length > 1 ? kbs.filter((kb) => holds(kb.kbDir, id)) : [];
  if (holding.length > 1) {
    throw new AmbiguousIdError(id, holding.map((kb) => kb.name), options.command);
  }
  if (kbs.length > 1 && !holding.length) {
    throw new KbError(
      `no entry ${id} in any of the knowledge bases (${kbs.map((kb) => kb.name).join(", ")}); ` +
        `find ids with ${options.findIds ?? `${selfCommand()} search <words>`}`,
      EXIT.failed,
    );
  }
  const [kb] = holding.length ? holding : kbs;
  const name = isConfigFile(source) ? { name: kb.name } : {};
  return { location: { kbDir: kb.kbDir, source, ...name }, id };
}

function holds(kbDir: string, id: string): boolean {
  try {
    return entryPaths(kbDir).has(id);
  } catch (error) {
    if (error instanceof NotAKbError) return false;
    throw error;
  }
}
