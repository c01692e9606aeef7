/**
 * The environment variables that point git at a repository, work tree, index or object store
 * other than those of the folder it runs in: git's own list of them (`local_repo_env`, which git
 * clears itself when it works in another repository, as for a submodule), and the `-c` settings a
 * parent git hands down. A git hook that starts an agent (a `prepare-commit-msg` hook that asks a
 * model for the message) passes them on, and git-kb's `git -C <kb>` calls would then read and
 * commit to that other repository: io/git.ts removes each before its first git call.
 *
 * @module
 */

/** The variables, by name. */
export const GIT_REPO_ENV = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_IMPLICIT_WORK_TREE",
  "GIT_COMMON_DIR",
  "GIT_INDEX_FILE",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_GRAFT_FILE",
  "GIT_SHALLOW_FILE",
  "GIT_NO_REPLACE_OBJECTS",
  "GIT_REPLACE_REF_BASE",
  "GIT_NAMESPACE",
  "GIT_PREFIX",
  "GIT_INTERNAL_SUPER_PREFIX",
  "GIT_CONFIG",
  "GIT_CONFIG_PARAMETERS",
  "GIT_CONFIG_COUNT",
] as const;
