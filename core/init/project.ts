/**
 * Telling a project's repo from a knowledge base's before `init` adopts it: `git-kb init .` run
 * in a project would commit `entries/` into it, and every save after would push to its remote.
 *
 * @module
 */

/**
 * Files at the top of a repo that make it a software project's: build and package manifests. A
 * repo of notes (an Obsidian vault, a TIL collection) holds none of them there.
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
 * The manifests of {@link PROJECT_MANIFESTS} among `topFiles` (the names of the files at the top
 * of a repo), in that list's order: empty for a repo that is no project's.
 */
export function projectManifests(topFiles: readonly string[]): string[] {
  const present = new Set(topFiles);
  return PROJECT_MANIFESTS.filter((name) => present.has(name));
}
