import { assert, assertEquals } from "@std/assert";
import { isLauncherTarget, isOnPath, pathSetupLine, userBinDir } from "./command_link.ts";

Deno.test("the user's folder of commands is ~/.local/bin", () => {
  assertEquals(userBinDir("/home/ann"), "/home/ann/.local/bin");
});

Deno.test("a launcher target ends in bin/git-kb; anything else is the user's own", () => {
  assert(isLauncherTarget("/src/git-kb/plugin/bin/git-kb"));
  assert(isLauncherTarget("/h/.claude/plugins/cache/git-kb/git-kb/0.1.0/bin/git-kb"));
  assert(isLauncherTarget("../../src/plugin/bin/git-kb"));
  assert(!isLauncherTarget("/usr/local/lib/git-kb"));
  assert(!isLauncherTarget("/opt/bin/git-kb-old"));
  assert(!isLauncherTarget("/opt/mybin/git-kb"));
});

Deno.test("on PATH: an exact folder of the list, a trailing slash forgiven", () => {
  assert(isOnPath("/h/.local/bin", "/usr/bin:/h/.local/bin/:/bin"));
  assert(!isOnPath("/h/.local/bin", "/usr/bin:/h/.local/bin2"));
  assert(!isOnPath("/h/.local/bin", undefined));
  assert(!isOnPath("/h/.local/bin", ""));
  assert(isOnPath("C:\\u\\bin", "C:\\x;C:\\u\\bin\\", ";"));
});

Deno.test("the PATH line goes where the user's shell reads it when a terminal opens", () => {
  const line = (file: string) => `echo 'export PATH="$HOME/.local/bin:$PATH"' >> ${file}`;
  assertEquals(pathSetupLine("/bin/zsh"), line("~/.zshrc"));
  assertEquals(pathSetupLine("/usr/local/bin/bash"), line("~/.bashrc"));
  assertEquals(pathSetupLine("/usr/bin/fish"), "fish_add_path $HOME/.local/bin");
  assertEquals(pathSetupLine("/bin/dash"), line("~/.profile"));
  assertEquals(pathSetupLine(undefined), line("~/.profile"));
});
