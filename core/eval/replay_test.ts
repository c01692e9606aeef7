import { assertEquals } from "@std/assert";
import { buildIndex, makeEntry } from "../index/_memory_index.ts";
import { replayPrompt } from "./replay.ts";
import { decide, DEFAULT_SURFACE_CONFIG } from "../prompt/decision.ts";

const reader = buildIndex([
  makeEntry({ id: "kb-tok01", title: "Rotate a leaked npm token", tags: ["npm"] }),
  makeEntry({ id: "kb-tok02", title: "Publish npm packages", body: "Rotate the token first.\n" }),
  makeEntry({ id: "kb-pg001", title: "Postgres pool sizing" }),
]).reader();
const fetch = (ids: string[]) => `git-kb get ${ids.join(" ")}`;

Deno.test("replayPrompt: the hook's pointers and bytes, and search's ranking", () => {
  const prompt = "how do we rotate the leaked npm token";
  const replayed = replayPrompt(reader, prompt, DEFAULT_SURFACE_CONFIG, fetch);
  assertEquals(replayed.outcome, "surfaced");
  // The body-only match holds under ¾ of the best one's evidence: one strong pointer.
  assertEquals(replayed.hook, ["kb-tok01"]);
  const text = decide(prompt, reader, {}, fetch).assembly!.text;
  assertEquals(replayed.bytes, new TextEncoder().encode(text).length);
  assertEquals(replayed.search, ["kb-tok01", "kb-tok02"]);
});

Deno.test("replayPrompt: a skipped prompt injects nothing, search still ranks", () => {
  const replayed = replayPrompt(reader, "thanks!", DEFAULT_SURFACE_CONFIG, fetch);
  assertEquals(replayed, { outcome: "skipped", hook: [], bytes: 0, search: [] });
  const pool = replayPrompt(reader, "ok, now the postgres pool", DEFAULT_SURFACE_CONFIG, fetch);
  assertEquals(pool.search, ["kb-pg001"]);
});
