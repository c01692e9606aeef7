import { assertEquals } from "@std/assert";
import { projectManifests } from "./project.ts";

Deno.test("projectManifests names a project's manifests at the top, and nothing for notes", () => {
  assertEquals(projectManifests(["README.md", "src", "Makefile", "package.json"]), [
    "package.json",
    "Makefile",
  ]);
  assertEquals(projectManifests(["README.md", "git", "Taskfile.yml", ".obsidian"]), []);
  assertEquals(projectManifests(["makefile.md"]), [], "a note of that name is a note");
});
