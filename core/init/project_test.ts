import { assertEquals } from "@std/assert";
import { projectManifests } from "./project.ts";

Deno.test("projectManifests names a project's manifests, and nothing for a repo of notes", () => {
  assertEquals(
    projectManifests(["README.md", "src/main.js", "src/util.js", "Makefile", "package.json"]),
    ["package.json", "Makefile"],
  );
  assertEquals(projectManifests(["README.md", "git/rebase.md", "Taskfile.yml"]), [], "no manifest");
  assertEquals(
    projectManifests(["requirements.txt", "build.py", "a/one.md", "b/two.md", "c/three.md"]),
    [],
    "a TIL collection built into a site: more notes than other files",
  );
  assertEquals(
    projectManifests(["go.mod", "main.go", ".github/a.yml", ".github/b.yml", "x.md", "y.md"]),
    [],
    "hidden files do not count",
  );
  assertEquals(projectManifests(["docs/Makefile", "src/a.c", "src/b.c"]), [], "not at the top");
});
