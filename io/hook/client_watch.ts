/**
 * One freshness watch per Claude Code client. A client starts the watch at each SessionStart:
 * `startup`, `resume`, and `clear`, which starts a new session in the same client process and
 * sends the old session's hooks nothing. Without this, every `/clear` left one more watch standing
 * by (21 processes and 863 MiB after 20 of them). Each watch writes its token to the client's
 * file in the cache root (`watch-client-<pid>.json`, 0600, never through a link) as it starts, so
 * the newest one owns it, and an older watch of the same client ends as soon as it sees another
 * token there (see `superseded` in io/index/watch.ts).
 *
 * @module
 */
import { join } from "../../core/path.ts";
import { readPrivateJson, writePrivateFile } from "../fs.ts";
import { cacheRoot } from "../paths.ts";

/** The most bytes of the client's file read (one is about 80). */
const CLAIM_MAX_BYTES = 4096;

/** A watch's claim on its client: whether a newer watch took over, and its release. */
export interface ClientWatchClaim extends Disposable {
  /** Whether a newer watch of the same client holds the claim now. */
  superseded(): boolean;
}

/**
 * Claim client `client` (a process id, see `hookClient` in ./session_alive.ts) for this watch,
 * taking it over from any older watch of the client. Disposing of the claim removes the file
 * while it is still this watch's.
 */
export function claimClientWatch(client: number): ClientWatchClaim {
  const path = join(cacheRoot(), `watch-client-${client}.json`);
  const token = crypto.randomUUID();
  writePrivateFile(path, JSON.stringify({ token, pid: Deno.pid, at: Date.now() }));
  const holder = (): unknown => {
    try {
      return (readPrivateJson(path, CLAIM_MAX_BYTES) as { token?: unknown } | undefined)?.token;
    } catch {
      return undefined; // not a regular file: nobody's claim
    }
  };
  return {
    superseded: () => {
      const current = holder();
      return current !== undefined && current !== token;
    },
    [Symbol.dispose]: () => {
      if (holder() !== token) return;
      try {
        Deno.removeSync(path);
      } catch { /* removed meanwhile */ }
    },
  };
}
