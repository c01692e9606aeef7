/**
 * Which Claude Code client started a background hook, and whether it still runs. Claude Code ends
 * a session by sending SIGTERM to its hooks (see ../../hooks/watch.ts); this covers a client
 * that ended without it (killed, crashed). The client runs a hook's command line through
 * `/bin/sh -c`; the plugin's background hooks start with `exec` (app/plugin_hooks.ts), so that
 * the shell is replaced by the launcher, the launcher by deno, and the client is the hook's
 * parent whatever `/bin/sh` is (bash passes a lone command on by exec by itself, dash 0.5.12
 * runs it as a child and waits: each checked on the real client 2.1.197, Linux). Two signs tell
 * that the client is gone, each checked without `/proc` (which Deno opens only with
 * `--allow-all`):
 *
 * - The hook's parent changed: the client died and the hook was handed to another parent.
 * - A write of no bytes to stderr or stdout fails (a broken pipe): where the client holds the
 *   other end as a socket. (Through a pipe such a write never fails; the first sign tells.)
 *
 * @module
 */

/**
 * The process id of the client that started this hook: its parent (see the module doc), the key
 * of one watch per client (io/hook/client_watch.ts).
 */
export function hookClient(): number {
  return Deno.ppid;
}

/** Whether a write of no bytes to `stream` still works: its reader is there (see module doc). */
function readerThere(stream: { writeSync(data: Uint8Array): number }): boolean {
  try {
    stream.writeSync(new Uint8Array(0));
    return true;
  } catch {
    return false;
  }
}

/**
 * A test of whether this process's client still runs: false once its parent changed, or stderr
 * or stdout lost its reader.
 */
export function sessionAliveTest(): () => boolean {
  const parent = Deno.ppid;
  return () => Deno.ppid === parent && readerThere(Deno.stderr) && readerThere(Deno.stdout);
}
