/**
 * Telling a project's repo from a knowledge base's before `init` adopts it: `git-kb init .` run
 * in a project would commit `entries/` into it, and every save after would push to its remote.
 *
 * @module
 */
import { NOTE_FILE } from "../import/wikilinks.ts";

/**
 * Files at the top of a repo that make it a software project's: build and package manifests. A
 * repo of notes can hold one too (a TIL collection published as a site), so they count only
 * beside more files that are not markdown than files that are.
 */
export const PROJECT_MANIFESTS: readonly string[] = [
  "package.json",
  "deno.json",
  "deno.jsonc",
  "Cargo.toml",
  "go.mod",
  "pyproject.toml",
  "setup.py",
  "requirements.txt",
  "Gemfile",
  "composer.json",
  "pom.xml",
  "build.gradle",
  "build.gradle.kts",
  "CMakeLists.txt",
  "Makefile",
  "mix.exs",
  "Package.swift",
];

/**
 * The manifests ({@link PROJECT_MANIFESTS}) at the top of a repo whose files (`paths`, relative
 * to its top, `/`-separated) say it is a project's: beside them, more files that are not
 * markdown than markdown ones (hidden files and folders aside). Empty for a repo of notes.
 */
export function projectManifests(paths: readonly string[]): string[] {
  const top = new Set(paths.filter((path) => !path.includes("/")));
  const manifests = PROJECT_MANIFESTS.filter((name) => top.has(name));
  if (!manifests.length) return [];
  const visible = paths.filter((path) => !path.split("/").some((part) => part.startsWith(".")));
  const notes = visible.filter((path) => NOTE_FILE.test(path)).length;
  return visible.length - notes > notes ? manifests : [];
}
