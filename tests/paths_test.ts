import { assert, assertEquals, assertNotStrictEquals } from "@std/assert";
import { join } from "@std/path/posix/join";
import { cacheRoot, cacheRootFor, indexDir, kbCacheDir, xdgConfigFile } from "../io/paths.ts";
import { overrideEnv, runAlone, tempDir } from "./helpers.ts";

/** Run `body` with the environment variables `values` set (undefined: unset), restoring them. */
function withEnv(values: Record<string, string | undefined>, body: () => void): void {
  using _env = overrideEnv(values);
  body();
}

Deno.test("the cache root: XDG_CACHE_HOME, else HOME/.cache, else git-kb-<uid> in the temp dir", () => {
  const env = (values: Record<string, string>) => (name: string) => values[name];
  assertEquals(cacheRootFor(env({ XDG_CACHE_HOME: "/x", HOME: "/h" }), 7), "/x/git-kb");
  assertEquals(cacheRootFor(env({ XDG_CACHE_HOME: "rel", HOME: "/h" }), 7), "/h/.cache/git-kb");
  assertEquals(cacheRootFor(env({ XDG_CACHE_HOME: "", HOME: "/h/" }), 7), "/h/.cache/git-kb");
  assertEquals(cacheRootFor(env({ TMPDIR: "/t/" }), 7), "/t/git-kb-7");
  assertEquals(cacheRootFor(env({ TEMP: "/w" }), null), "/w/git-kb", "no uids: Windows");
  assertEquals(cacheRootFor(env({}), 0), "/tmp/git-kb-0");
});

Deno.test("the config file: XDG_CONFIG_HOME when it is absolute, else HOME/.config", async (t) => {
  if (await runAlone(t)) return;
  const file = (values: Record<string, string | undefined>) => {
    using _env = overrideEnv(values);
    return xdgConfigFile();
  };
  assertEquals(file({ XDG_CONFIG_HOME: "/x", HOME: "/h" }), "/x/git-kb/config.json");
  // A relative one would name another file wherever a command runs.
  assertEquals(file({ XDG_CONFIG_HOME: "rel", HOME: "/h" }), "/h/.config/git-kb/config.json");
  assertEquals(file({ XDG_CONFIG_HOME: "", HOME: "/h" }), "/h/.config/git-kb/config.json");
  assertEquals(
    file({ XDG_CONFIG_HOME: "rel", HOME: undefined, USERPROFILE: undefined }),
    undefined,
  );
});

Deno.test("kbCacheDir: under the cache root, named after the folder, one per path and root", async (t) => {
  if (await runAlone(t)) return;
  await using temp = await tempDir();
  const base = temp.path;
  withEnv({ XDG_CACHE_HOME: join(base, "one") }, () => {
    const dir = kbCacheDir("/home/me/my kb");
    assert(dir.startsWith(`${cacheRoot()}/my_kb-`), dir);
    assertEquals(cacheRoot(), join(base, "one", "git-kb"));
    assertEquals(Deno.statSync(cacheRoot()).mode! & 0o777, 0o700, "made private");
    assertEquals(kbCacheDir("/home/me/my kb"), dir, "asked again, the same folder");
    assertEquals(indexDir("/home/me/my kb"), `${dir}/index`);
    const other = kbCacheDir("/srv/my kb");
    assertNotStrictEquals(
      other,
      dir,
      "another knowledge base of the same name has a folder of its own",
    );
    assertEquals(kbCacheDir("/home/me/my kb"), dir, "and back again");
    withEnv({ XDG_CACHE_HOME: join(base, "two") }, () => {
      assertEquals(kbCacheDir("/home/me/my kb"), dir.replace("/one/", "/two/"), "it moves");
    });
  });
});
