/**
 * Prints the cache root of this environment (`cacheRootFor` in io/paths.ts): the one folder the
 * `deno.json` tasks of the read-only profiles let a command write, so that `deno task search`
 * writes where `git-kb search` does, `XDG_CACHE_HOME` included. Prints nothing and sets exit code
 * 1, saying why on stderr, when no permission flag can name that folder.
 *
 * @module
 */
import { EXIT } from "../core/exit.ts";
import { cacheRootPath } from "../io/paths.ts";
import { checkPermissionWord } from "./permissions.ts";

if (import.meta.main) {
  try {
    console.log(checkPermissionWord(cacheRootPath(), "the cache folder"));
  } catch (error) {
    console.error(`git-kb: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exitCode = EXIT.failed;
  }
}
