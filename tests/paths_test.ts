import { equal, notEqual, ok } from "node:assert";
import { cacheRoot, indexDir, kbCacheDir } from "../io/paths.ts";

/** Run `body` with TMPDIR set to `value`, restoring it after. */
function withTmpdir(value: string, body: () => void): void {
  const before = Deno.env.get("TMPDIR");
  Deno.env.set("TMPDIR", value);
  try {
    body();
  } finally {
    if (before === undefined) Deno.env.delete("TMPDIR");
    else Deno.env.set("TMPDIR", before);
  }
}

Deno.test("kbCacheDir: under the cache root, named after the folder, one per path and root", () => {
  withTmpdir("/tmp/one", () => {
    const dir = kbCacheDir("/home/me/my kb");
    ok(dir.startsWith(`${cacheRoot()}/my_kb-`), dir);
    equal(kbCacheDir("/home/me/my kb"), dir, "asked again, the same folder");
    equal(indexDir("/home/me/my kb"), `${dir}/index`);
    const other = kbCacheDir("/srv/my kb");
    notEqual(other, dir, "another knowledge base of the same name has a folder of its own");
    equal(kbCacheDir("/home/me/my kb"), dir, "and back again");
    withTmpdir("/tmp/two", () => {
      equal(kbCacheDir("/home/me/my kb"), dir.replace("/tmp/one/", "/tmp/two/"), "TMPDIR moves it");
    });
  });
});
