/**
 * `./deno`, the README's way to run Deno with no root: the Deno 2 on PATH when there is one, else
 * the one installed from npm in the user's data folder, first on PATH so that tasks and tests that
 * start `deno` by name get it too. Fake `deno` and `npm` programs stand in (no network): each
 * says who it is, its arguments and the PATH it got.
 */
import { assertEquals, assertMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { runProcess } from "../io/process.ts";
import { makeSandbox, ROOT, show } from "./helpers.ts";

const WRAPPER = join(ROOT, "deno");

/** A program at `path` that prints `name`, its arguments and PATH; `--version` prints `version`. */
async function fakeDeno(path: string, name: string, version: string): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\nif [ "$1" = --version ]; then echo "${version}"; exit 0; fi\n` +
      `echo "${name} $*"\necho "PATH=$PATH"\n`,
    { mode: 0o755 },
  );
}

/** A folder of the tools a shell script needs, and nothing named deno or npm. */
async function baseTools(root: string): Promise<string> {
  const tools = join(root, "tools");
  await Deno.mkdir(tools);
  for (const tool of ["sh", "grep", "head", "mkdir", "chmod", "sed"]) {
    const found = await runProcess("sh", ["-c", `command -v ${tool}`]);
    await Deno.symlink(found.stdout.trim(), join(tools, tool));
  }
  return tools;
}

Deno.test("./deno runs the Deno 2 on PATH as it is", async () => {
  await using box = await makeSandbox();
  const tools = await baseTools(box.root);
  const system = join(box.root, "system");
  await fakeDeno(join(system, "deno"), "system", "deno 2.1.0 (stable)");
  const result = await runProcess(WRAPPER, ["task", "demo"], {
    env: { PATH: `${system}:${tools}`, HOME: box.home },
    clearEnv: true,
  });
  assertEquals(result.code, 0, show(result));
  assertMatch(result.stdout, /^system task demo$/m);
});

Deno.test("./deno passes over a Deno 1 and itself on PATH, installs from npm once, and puts that Deno first on PATH", async () => {
  await using box = await makeSandbox();
  const tools = await baseTools(box.root);
  const old = join(box.root, "old");
  await fakeDeno(join(old, "deno"), "old", "deno 1.46.3 (stable)");
  // The fake npm "installs" a fake Deno where npm would, and counts its runs.
  const npm = join(box.root, "npm-bin", "npm");
  const prefix = join(box.home, ".local", "share", "git-kb", "deno");
  await Deno.mkdir(join(npm, ".."));
  await Deno.writeTextFile(
    npm,
    `#!/bin/sh\necho "$*" >> "${box.root}/npm.log"\n` +
      `mkdir -p "${prefix}/node_modules/deno" "${prefix}/node_modules/.bin"\n` +
      `echo '{ "version": "2.9.6" }' > "${prefix}/node_modules/deno/package.json"\n` +
      `printf '#!/bin/sh\\n[ "$1" = --version ] && echo "deno 2.9.6" && exit 0\\necho "user $*"\\necho "PATH=$PATH"\\n' > "${prefix}/node_modules/.bin/deno"\n` +
      `chmod +x "${prefix}/node_modules/.bin/deno"\n`,
    { mode: 0o755 },
  );
  const checkout = join(box.root, "checkout");
  await Deno.mkdir(checkout);
  await Deno.copyFile(WRAPPER, join(checkout, "deno"));
  await Deno.chmod(join(checkout, "deno"), 0o755);
  const rest = `${join(npm, "..")}:${tools}`;
  // This script first on PATH (`.`), then a Deno 1 first: neither is taken for Deno 2.
  for (const path of [`.:${old}:${rest}`, `${old}:.:${rest}`]) {
    const result = await runProcess("./deno", ["task", "test"], {
      env: { PATH: path, HOME: box.home },
      clearEnv: true,
      cwd: checkout,
      timeoutMs: 20_000,
      ownGroup: true,
    });
    assertEquals(result.code, 0, show(result));
    assertMatch(result.stdout, /^user task test$/m, show(result));
    assertMatch(result.stdout, new RegExp(`^PATH=${prefix}/node_modules/\\.bin:`, "m"));
  }
  const log = await Deno.readTextFile(join(box.root, "npm.log"));
  assertEquals(log.trim().split("\n").length, 1, `installed once: ${log}`);
  assertMatch(log, /^install --prefix .* deno@2\.9\.6$/m);
});

Deno.test("./deno with no Deno and no npm says what to install, exit 1", async () => {
  await using box = await makeSandbox();
  const tools = await baseTools(box.root);
  const result = await runProcess(WRAPPER, ["task", "demo"], {
    env: { PATH: tools, HOME: box.home },
    clearEnv: true,
  });
  assertEquals(result.code, 1, show(result));
  assertMatch(result.stderr, /Deno 2 is needed and npm \(to install it\) was not found/);
});

Deno.test("./deno whose npm install fails says so after npm's own error, with what to do, exit 1", async () => {
  await using box = await makeSandbox();
  const tools = await baseTools(box.root);
  const npm = join(box.root, "npm-bin", "npm");
  await Deno.mkdir(join(npm, ".."));
  await Deno.writeTextFile(
    npm,
    "#!/bin/sh\necho 'npm error code SELF_SIGNED_CERT_IN_CHAIN' >&2\nexit 1\n",
    { mode: 0o755 },
  );
  const result = await runProcess(WRAPPER, ["task", "demo"], {
    env: { PATH: `${join(npm, "..")}:${tools}`, HOME: box.home },
    clearEnv: true,
  });
  assertEquals(result.code, 1, show(result));
  const lines = result.stderr.trim().split("\n");
  assertEquals(lines.at(-2), "npm error code SELF_SIGNED_CERT_IN_CHAIN", show(result));
  assertMatch(
    lines.at(-1) ?? "",
    /^\.\/deno: npm could not install deno@[\d.]+ .*: check that npm reaches its registry \(npm ping\), or install Deno 2 yourself \(https:\/\/deno\.com\), then retry\.$/,
  );
});

Deno.test("./deno task from a folder outside the checkout says where to run it, the line quoted to paste, exit 2", async () => {
  await using box = await makeSandbox();
  const tools = await baseTools(box.root);
  const system = join(box.root, "system");
  await fakeDeno(join(system, "deno"), "system", "deno 2.1.0 (stable)");
  const elsewhere = join(box.root, "my notes");
  await Deno.mkdir(elsewhere);
  const env = { PATH: `${system}:${tools}`, HOME: box.home };
  const result = await runProcess(WRAPPER, ["task", "import", "it's"], {
    env,
    clearEnv: true,
    cwd: elsewhere,
  });
  assertEquals(result.code, 2, show(result));
  const line = result.stderr.match(/; run: (.*)$/m)?.[1] ?? "";
  const checkout = Deno.realPathSync(ROOT);
  assertEquals(line, `cd '${checkout}' && ./deno 'task' 'import' 'it'\\''s'`, show(result));
  // Pasted, it runs the task from the checkout: here the fake Deno, given the same arguments.
  const pasted = await runProcess("sh", ["-c", line], { env, clearEnv: true, cwd: elsewhere });
  assertMatch(pasted.stdout, /^system task import it's$/m, show(pasted));
  const inside = await runProcess(WRAPPER, ["task", "demo"], {
    env,
    clearEnv: true,
    cwd: join(ROOT, "plugin"),
  });
  assertMatch(inside.stdout, /^system task demo$/m, "a folder inside the checkout runs it");
});
