import { assertEquals } from "@std/assert";
import {
  acceptedOnly,
  kernelRuleHash,
  kernelState,
  parseAcceptedRules,
  pendingNotice,
  serializeAcceptedRules,
  withAccepted,
} from "./acceptance.ts";

const rule = { id: "kb-7q2mx", title: "Commits", body: "Sign them." };

Deno.test("a rule is accepted by id and content: title and body, not whitespace around it", () => {
  const accepted = withAccepted({}, [rule]);
  assertEquals(kernelState(accepted, rule), "accepted");
  assertEquals(kernelState(accepted, { ...rule, body: "\nSign them.\n" }), "accepted");
  assertEquals(kernelState(accepted, { ...rule, body: "Sign them all." }), "changed");
  assertEquals(kernelState(accepted, { ...rule, title: "Commits!" }), "changed");
  assertEquals(kernelState(accepted, { ...rule, id: "kb-other" }), "new");
  assertEquals(kernelState({}, { ...rule, id: "__proto__" }), "new");
  assertEquals(acceptedOnly(accepted, [rule, { ...rule, id: "kb-other" }]), [rule]);
});

Deno.test("the record round-trips, keeps the latest contents per id and drops what is not sound", () => {
  let accepted = {};
  for (let version = 0; version < 12; version++) {
    accepted = withAccepted(accepted, [{ ...rule, body: `v${version}` }]);
  }
  const read = parseAcceptedRules(JSON.parse(serializeAcceptedRules(accepted)));
  assertEquals(read[rule.id].length, 8);
  assertEquals(kernelState(read, { ...rule, body: "v11" }), "accepted");
  assertEquals(kernelState(read, { ...rule, body: "v0" }), "changed");
  assertEquals(
    parseAcceptedRules({ rules: { a: ["nothex", 3, kernelRuleHash(rule)], b: "x", c: [] } }),
    { a: [kernelRuleHash(rule)] },
  );
  assertEquals(parseAcceptedRules(null), {});
  assertEquals(parseAcceptedRules({ rules: [] }), {});
});

Deno.test("the notice names each rule, its state and the command, on one line whatever a title holds", () => {
  const notice = pendingNotice([
    { id: "team:kb-7q2mx", title: "Commits\n\x1b[31mred", state: "new" },
    { id: "kb-2", title: "Two", state: "changed" },
  ], "git-kb kernel");
  assertEquals(
    notice,
    '2 kernel rules wait for your acceptance and apply to no prompt until then: team:kb-7q2mx "Commits red" (new), kb-2 "Two" (changed since you accepted it). Review them: git-kb kernel',
  );
});
