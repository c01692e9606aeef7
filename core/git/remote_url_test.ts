import { assert, assertEquals } from "@std/assert";
import { isRemoteUrl, remoteKey } from "./remote_url.ts";

Deno.test("remoteKey: one repository reached by ssh, scp-like or https, any user, is one key", () => {
  const key = "github.com/me/kb";
  for (
    const url of [
      "git@github.com:me/kb.git",
      "git@GitHub.com:me/kb",
      "ssh://git@github.com/me/kb.git",
      "https://github.com/me/kb",
      "https://me:secret@github.com/me/kb.git/",
    ]
  ) {
    assertEquals(remoteKey(url), key, url);
  }
  assert(remoteKey("https://github.com/me/other") !== key);
  assert(remoteKey("https://gitlab.com/me/kb") !== key);
});

Deno.test("remoteKey: a local path or file:// URL is its path, without a trailing / or .git", () => {
  assertEquals(remoteKey("/srv/git/kb.git"), "/srv/git/kb");
  assertEquals(remoteKey("/srv/git/kb/"), "/srv/git/kb");
  assertEquals(remoteKey("file:///srv/git/kb.git"), "/srv/git/kb");
  assert(remoteKey("/srv/git/kb") !== remoteKey("/srv/git/kb2"));
});

Deno.test("isRemoteUrl: URLs and scp-like addresses, not paths", () => {
  assert(isRemoteUrl("https://github.com/me/kb"));
  assert(isRemoteUrl("git@github.com:me/kb.git"));
  assert(!isRemoteUrl("/srv/git/kb.git"));
  assert(!isRemoteUrl("kb"));
});
