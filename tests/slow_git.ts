/**
 * Slow remotes and a cramped disk: a fake `git` first on PATH whose fetch never ends (for the
 * SessionStart tests), one that cannot write a large file in one command, one that counts its
 * calls, and a remote whose transport hangs (a `git-remote-hang` helper on PATH, the stand-in for
 * ssh or an http helper that never answers), and the check that what they started is gone.
 *
 * @module
 */
import { assertEquals } from "@std/assert";
import { join } from "@std/path/posix/join";

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

/**
 * A `git` that, asked to run `command`, creates the file `marker` and waits `seconds` first (a
 * save caught between writing its entry and committing it); every call is the real git's.
 */
export async function pausingGit(
  dir: string,
  command: string,
  marker: string,
  seconds: number,
): Promise<string> {
  const real = (await new Deno.Command("sh", { args: ["-c", "command -v git"] }).output()).stdout;
  const bin = join(dir, "pausing-git-bin");
  await Deno.mkdir(bin);
  await Deno.writeTextFile(
    join(bin, "git"),
    `#!/bin/sh
for arg in "$@"; do
  if [ "$arg" = '${command}' ]; then touch '${marker}'; sleep ${seconds}; break; fi
done
exec '${new TextDecoder().decode(real).trim()}' "$@"
`,
    { mode: 0o755 },
  );
  return `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`;
}

/**
 * A `git` that cannot write a file over `blocks` blocks of `ulimit -f` (16: 8 KiB in dash, 16 in
 * bash; 0: no byte) while it runs `command`, or any of several (as on a full disk: each write past
 * that fails, and git goes on to the next file); every other call is the real git's.
 */
export async function cramped(
  dir: string,
  command: string | string[],
  blocks = 16,
): Promise<string> {
  const commands = typeof command === "string" ? [command] : command;
  const real = (await new Deno.Command("sh", { args: ["-c", "command -v git"] }).output()).stdout;
  const bin = join(dir, "cramped-git-bin");
  await Deno.mkdir(bin);
  await Deno.writeTextFile(
    join(bin, "git"),
    `#!/bin/sh
for arg in "$@"; do
  case "$arg" in
    ${commands.map((name) => `'${name}'`).join("|")})
      trap '' XFSZ
      ulimit -f ${blocks} ;;
  esac
done
exec '${new TextDecoder().decode(real).trim()}' "$@"
`,
    { mode: 0o755 },
  );
  return `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`;
}

/**
 * A `git` that writes the subcommand of each call (its first argument that is not an option or
 * an option's value) to `log`, one a line, then runs the real git. Returns PATH with it first.
 */
export async function countingGit(dir: string, log: string): Promise<string> {
  const real = (await new Deno.Command("sh", { args: ["-c", "command -v git"] }).output()).stdout;
  const bin = join(dir, "counting-git-bin");
  await Deno.mkdir(bin);
  await Deno.writeTextFile(
    join(bin, "git"),
    `#!/bin/sh
skip=
for arg in "$@"; do
  if [ -n "$skip" ]; then skip=; continue; fi
  case "$arg" in
    -c|-C) skip=1 ;;
    -*) ;;
    *) echo "$arg" >> '${log}'; break ;;
  esac
done
exec '${new TextDecoder().decode(real).trim()}' "$@"
`,
    { mode: 0o755 },
  );
  return `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`;
}

/**
 * A remote transport that never answers: `git-remote-hang` in a folder of `dir`, which git runs
 * for a remote URL `hang::<anything>`. It starts a long `sleep` (a child of its own, as ssh has),
 * writes both pids to `pids` and waits. Returns PATH with the helper first.
 */
export async function hangingRemote(dir: string, pids: string): Promise<string> {
  const bin = join(dir, "hanging-remote-bin");
  await Deno.mkdir(bin);
  await Deno.writeTextFile(
    join(bin, "git-remote-hang"),
    `#!/bin/sh\nsleep 600 &\necho "$$ $!" > '${pids}'\nwait\n`,
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

/**
 * Wait up to five seconds for the processes named in `pids` (the fake fetch's or the hanging
 * transport's) to be gone; assert they are. Ended processes go within milliseconds, but a loaded
 * machine may take a while to reap them; one that was never ended stays for its whole sleep.
 * Survivors are killed first, so a failure leaves nothing running either.
 */
export async function assertGone(pids: string): Promise<void> {
  const [shell, sleeper] = (await Deno.readTextFile(pids)).trim().split(" ").map(Number);
  for (let tries = 0; tries < 100 && (alive(shell) || alive(sleeper)); tries++) {
    await new Promise((done) => setTimeout(done, 50));
  }
  const survivors = [alive(shell), alive(sleeper)];
  for (const pid of [shell, sleeper]) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch { /* gone, as it should be */ }
  }
  assertEquals(survivors[0], false, `the fake git or transport ${shell} still runs`);
  assertEquals(survivors[1], false, `its child ${sleeper} (a transport) still runs`);
}
