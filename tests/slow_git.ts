/**
 * A slow remote for the SessionStart tests: a fake `git` first on PATH whose fetch never ends,
 * standing in for a transport that hangs, and the check that what it started is gone.
 *
 * @module
 */
import { strictEqual as equal } from "node:assert/strict";
import { join } from "node:path";

/**
 * A `git` whose fetch never ends: it starts a long `sleep` (standing in for ssh), writes both
 * pids to `pids`, and waits; every other call goes to the real git.
 */
export async function slowGit(dir: string, pids: string): Promise<string> {
  const real = (await new Deno.Command("sh", { args: ["-c", "command -v git"] }).output()).stdout;
  const bin = join(dir, "slow-git-bin");
  await Deno.mkdir(bin);
  await Deno.writeTextFile(
    join(bin, "git"),
    `#!/bin/sh
for arg in "$@"; do
  if [ "$arg" = fetch ]; then
    sleep 600 &
    echo "$$ $!" > '${pids}'
    wait
  fi
done
exec '${new TextDecoder().decode(real).trim()}' "$@"
`,
    { mode: 0o755 },
  );
  return `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`;
}

/** Whether process `pid` runs (is there and not a zombie), from /proc. */
export function alive(pid: number): boolean {
  try {
    return !Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1]?.startsWith("Z");
  } catch {
    return false;
  }
}

/** Wait up to a second for the fake fetch's processes to be gone; assert they are. */
export async function assertGone(pids: string): Promise<void> {
  const [shell, sleeper] = (await Deno.readTextFile(pids)).trim().split(" ").map(Number);
  for (let tries = 0; tries < 20 && (alive(shell) || alive(sleeper)); tries++) {
    await new Promise((done) => setTimeout(done, 50));
  }
  equal(alive(shell), false, `the fake git ${shell} still runs`);
  equal(alive(sleeper), false, `its child ${sleeper} (a transport) still runs`);
}
