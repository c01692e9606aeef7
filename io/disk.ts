/**
 * Small questions the commands ask about paths on disk (what is there, is it a folder, is it
 * empty, where does it really lead) and the one folder-making step init needs. None of them
 * throws for a missing path: "not there" is an answer.
 *
 * @module
 */
import { dirname } from "../core/path.ts";
import { resolvePath } from "./paths.ts";

/** What `path` is, following symlinks; undefined when nothing is there. */
export function statOf(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.statSync(path);
  } catch {
    return undefined;
  }
}

/** What `path` is, without following a symlink; undefined when nothing is there. */
export function lstatOf(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Whether anything (a dangling symlink included) sits at `path`. */
export function pathExists(path: string): boolean {
  return lstatOf(path) !== undefined;
}

/** Whether `path` is a folder (after symlinks). */
export function isFolder(path: string): boolean {
  return statOf(path)?.isDirectory ?? false;
}

/** Whether `path` is a regular file (after symlinks). */
export function isFile(path: string): boolean {
  return statOf(path)?.isFile ?? false;
}

/** Whether the folder `path` holds nothing; throws when it cannot be listed. */
export function isEmptyDir(path: string): boolean {
  for (const _ of Deno.readDirSync(path)) return false;
  return true;
}

/** Where `path` really leads (symlinks resolved), else its absolute form when it is missing. */
export function realPathOr(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return resolvePath(path);
  }
}

/** Create the folder `path` and any missing parents. */
export function makeDirs(path: string): void {
  Deno.mkdirSync(path, { recursive: true });
}

/** The bytes of `file`, or of stdin when `file` is `-`; throws Deno's NotFound when missing. */
export async function readFileOrStdin(file: string): Promise<Uint8Array> {
  return file === "-"
    ? new Uint8Array(await new Response(Deno.stdin.readable).arrayBuffer())
    : Deno.readFileSync(file);
}

/** The folder `path` would be written into, or its nearest ancestor that exists. */
export function existingFolderOf(path: string): string {
  let folder = dirname(path);
  while (!lstatOf(folder) && dirname(folder) !== folder) folder = dirname(folder);
  return folder;
}
