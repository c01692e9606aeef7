import { assert, assertEquals, assertMatch } from "@std/assert";
import { blankEntry, serializeEntry } from "../entry/entry.ts";
import {
  checkEntries,
  checkHistory,
  checkTree,
  EDIT,
  type FinalState,
  idByTitle,
  NEW_BOOKMARK,
  NEW_DECISION,
  seedFiles,
  SEEDS,
  taskBriefs,
} from "./selftest_plan.ts";

/** The final state a correct run leaves. */
function goodState(): FinalState {
  const files = seedFiles();
  const edited = SEEDS.find((entry) => entry.id === EDIT.id)!;
  for (const [path, text] of files) {
    if (path.startsWith(`entries/${EDIT.id}-`)) {
      files.set(
        path,
        serializeEntry({
          ...edited,
          tags: [...edited.tags, EDIT.addTag],
          body: EDIT.body,
          updated: "2026-02-01",
        }),
      );
    } else files.set(path, text);
  }
  const decision = {
    ...blankEntry("kb-dec01", "2026-02-01"),
    ...NEW_DECISION,
    tags: [...NEW_DECISION.tags],
  };
  const bookmark = {
    ...blankEntry("kb-bmk01", "2026-02-01"),
    ...NEW_BOOKMARK,
    tags: [...NEW_BOOKMARK.tags],
  };
  files.set("entries/kb-dec01-use-deno.md", serializeEntry(decision));
  files.set("entries/kb-bmk01-deno-permissions.md", serializeEntry(bookmark));
  return {
    subjects: [
      "selftest: three seeded entries",
      `kb: add kb-dec01: ${NEW_DECISION.title}`,
      `kb: add kb-bmk01: ${NEW_BOOKMARK.title}`,
      `kb: edit ${EDIT.id}: Squash merge pull requests into main (tags, body)`,
    ],
    files,
    status: "",
    remotes: "",
  };
}

const IDS = { decision: "kb-dec01", bookmark: "kb-bmk01" };

Deno.test("a correct final state passes every check", () => {
  const state = goodState();
  assertEquals(
    {
      decision: idByTitle(state.files, NEW_DECISION.title),
      bookmark: idByTitle(state.files, NEW_BOOKMARK.title),
    },
    IDS,
  );
  for (const check of [checkHistory(state, IDS), checkEntries(state), checkTree(state)]) {
    assertEquals(check.ok, true, `${check.name}: ${check.detail}`);
  }
});

Deno.test("history out of order or short fails, naming what was expected and found", () => {
  const state = goodState();
  const swapped = {
    ...state,
    subjects: [state.subjects[0], state.subjects[2], state.subjects[1], state.subjects[3]],
  };
  assertEquals(checkHistory(swapped, IDS).ok, false);
  const short = checkHistory({ ...state, subjects: state.subjects.slice(0, 2) }, IDS);
  assertEquals(short.ok, false);
  assertMatch(short.detail, /found: "kb: add kb-dec01: Use Deno for command line tools"$/);
});

Deno.test("entry files: a missing entry, a missed edit or a touched seed each fail", () => {
  const state = goodState();
  const noBookmark = new Map(state.files);
  noBookmark.delete("entries/kb-bmk01-deno-permissions.md");
  assertMatch(
    checkEntries({ ...state, files: noBookmark }).detail,
    /no entry titled "Deno permissions manual"/,
  );
  const unedited = new Map(state.files);
  for (const [path, text] of seedFiles()) unedited.set(path, text);
  assertMatch(checkEntries({ ...state, files: unedited }).detail, /kb-st003 lacks the edit/);
  const touched = new Map(state.files);
  const [seedPath, seedText] = [...seedFiles()][0];
  touched.set(seedPath, seedText.replace("Revoke", "Rotate"));
  assertMatch(checkEntries({ ...state, files: touched }).detail, /kb-st001 changed/);
});

Deno.test("a dirty tree or a remote fails", () => {
  const state = goodState();
  assertMatch(
    checkTree({ ...state, status: "?? entries/stray.md\n" }).detail,
    /uncommitted: \?\? entries\/stray.md/,
  );
  assertMatch(checkTree({ ...state, remotes: "origin\n" }).detail, /has a remote \(origin\)/);
});

Deno.test("task briefs: three writer tasks, then five reader tasks, each expected", () => {
  const briefs = taskBriefs();
  assertEquals(briefs.map((brief) => brief.role), [
    "writer",
    "writer",
    "writer",
    "reader",
    "reader",
    "reader",
    "reader",
    "reader",
  ]);
  assert(briefs.every((brief) => brief.task && brief.expect));
});
