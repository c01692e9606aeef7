/**
 * Whether the Claude Code session that started a background hook still runs. Claude Code ends
 * a session by sending SIGTERM to its hooks (see ../../hooks/watch.ts); this covers a client
 * that ended without it (killed, crashed). Two signs tell, each checked on the real client
 * (2.1.197, Linux):
 *
 * - The hook's stderr is a socket whose other end the client holds: once the client is gone, a
 *   write of no bytes to it fails (a broken pipe), while it sends nothing to a live client.
 * - Where the client's `/bin/sh -c` passes the command on by exec (bash does), the client is the
 *   hook's parent, and the hook is handed to another parent when it dies. (Where the shell
 *   stays, as dash does, that shell is the parent and outlives the client: the first sign
 *   covers it.)
 *
 * @module
 */

/** Whether a write of no bytes to stderr still works: its reader is there. */
function stderrReaderThere(): boolean {
  try {
    Deno.stderr.writeSync(new Uint8Array(0));
    return true;
  } catch {
    return false;
  }
}

/**
 * A test of whether this process's session still runs: false once its parent changed or its
 * stderr lost its reader.
 */
export function sessionAliveTest(): () => boolean {
  const parent = Deno.ppid;
  return () => Deno.ppid === parent && stderrReaderThere();
}
