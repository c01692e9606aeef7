/**
 * `git-kb export`'s work: write git-kb's block (core/export/agent_files.ts) into the agent files
 * of a project, or with `check` only say which are stale. Without a list of files, AGENTS.md is
 * written, and each of the others whose agent the project already uses (CLAUDE.md exists, a
 * `.cursor/` or `.windsurf/` folder exists). A file that is a symbolic link is written where it
 * points, so a CLAUDE.md linked to AGENTS.md stays linked.
 *
 * @module
 */
import { join } from "../../core/path.ts";
import {
  AGENT_FILES,
  type AgentFileName,
  exportedFile,
  type ExportedRule,
} from "../../core/export/agent_files.ts";
import { ifExists, writeFileAtomic } from "../fs.ts";

/** What to export, and where. */
export interface ExportRequest {
  /** The project folder the agent files live in; the current folder when undefined. */
  projectDir?: string;
  /** The kernel rules to write. */
  rules: readonly ExportedRule[];
  /** Which files; undefined for AGENTS.md and the agents the project already uses. */
  files?: readonly AgentFileName[];
  /** Only compare: write nothing. */
  check?: boolean;
}

/** What happened to one agent file. */
export interface ExportedFileReport {
  name: AgentFileName;
  /** Its path inside the project. */
  path: string;
  /** `written`/`unchanged` on export; `stale`/`unchanged` with check. */
  state: "written" | "unchanged" | "stale";
  /** Kernel rules left out to keep the file inside its agent's limit. */
  leftOut: string[];
}

/** Export the block into each agent file (see the module doc). */
export function exportAgentFiles(request: ExportRequest): ExportedFileReport[] {
  const projectDir = request.projectDir ?? Deno.cwd();
  const names = request.files ?? filesInUse(projectDir);
  const targets = new Set<string>();
  return names.flatMap((name): ExportedFileReport[] => {
    const { path } = AGENT_FILES[name];
    const target = writablePath(join(projectDir, path));
    // Two names for one file (CLAUDE.md linked to AGENTS.md): it is written once, as the first.
    if (targets.has(target)) return [];
    targets.add(target);
    const current = ifExists(() => Deno.readTextFileSync(target)) ?? "";
    const { text, leftOut } = exportedFile(name, current, request.rules);
    if (text === current) return [{ name, path, state: "unchanged", leftOut }];
    if (request.check) return [{ name, path, state: "stale", leftOut }];
    writeFileAtomic(target, text);
    return [{ name, path, state: "written", leftOut }];
  });
}

/** AGENTS.md, and each other agent file whose agent the project shows signs of using. */
function filesInUse(projectDir: string): AgentFileName[] {
  const exists = (path: string) =>
    ifExists(() => Deno.lstatSync(join(projectDir, path))) !== undefined;
  const names: AgentFileName[] = ["agents"];
  if (exists("CLAUDE.md")) names.push("claude");
  if (exists(".cursor")) names.push("cursor");
  if (exists(".windsurf")) names.push("windsurf");
  return names;
}

/** Where a write to `path` goes: the file a symbolic link points at, else `path` itself. */
function writablePath(path: string): string {
  const info = ifExists(() => Deno.lstatSync(path));
  return info?.isSymlink ? Deno.realPathSync(path) : path;
}
