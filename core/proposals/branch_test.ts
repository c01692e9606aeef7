import { assertEquals } from "@std/assert";
import { isDetachedHead, isProposalsRef, packedRefsAt } from "./branch.ts";

const COMMIT = "a".repeat(40);

Deno.test("a detached HEAD is a commit id; a ref line is not", () => {
  assertEquals(isDetachedHead(`${COMMIT}\n`), true);
  assertEquals(isDetachedHead("b".repeat(64)), true, "a SHA-256 repository");
  assertEquals(isDetachedHead("ref: refs/heads/main\n"), false);
  assertEquals(isDetachedHead(""), false);
});

Deno.test("the proposals refs: this clone's and a remote's, nothing else", () => {
  assertEquals(isProposalsRef("refs/heads/git-kb/proposals"), true);
  assertEquals(isProposalsRef("refs/remotes/origin/git-kb/proposals"), true);
  assertEquals(isProposalsRef("refs/heads/main"), false);
  assertEquals(isProposalsRef("refs/remotes/origin/main"), false);
  assertEquals(isProposalsRef("refs/tags/git-kb/proposals"), false);
});

Deno.test("packed-refs: the refs at a commit, peeled lines and the header passed over", () => {
  const packed = [
    "# pack-refs with: peeled fully-peeled sorted",
    `${COMMIT} refs/heads/main`,
    `${COMMIT} refs/remotes/origin/git-kb/proposals`,
    `^${COMMIT}`,
    `${"c".repeat(40)} refs/heads/other`,
    "",
  ].join("\n");
  assertEquals(packedRefsAt(packed, COMMIT), [
    "refs/heads/main",
    "refs/remotes/origin/git-kb/proposals",
  ]);
  assertEquals(packedRefsAt(packed, "d".repeat(40)), []);
});
