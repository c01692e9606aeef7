/**
 * Opening the user's editor on a text and reading back what they saved.
 *
 * @module
 */
import { join } from "../core/path.ts";
import { cacheRoot } from "./paths.ts";

/** The editor command: `$VISUAL`, else `$EDITOR`, else `vi`. */
export function editorCommand(): string {
  return Deno.env.get("VISUAL") || Deno.env.get("EDITOR") || "vi";
}

/**
 * Let the user edit `text` in their editor (a temp file under the cache folder) and return the
 * saved text. Throws when the editor exits non-zero.
 */
export async function editInEditor(text: string, name: string): Promise<string> {
  if (!Deno.env.get("VISUAL") && !Deno.env.get("EDITOR") && !Deno.stdin.isTerminal()) {
    throw new Error(
      "no editor to open: $VISUAL and $EDITOR are unset and there is no terminal for vi; " +
        "set one, or give the text with field flags (--body, --body-file)",
    );
  }
  const dir = join(cacheRoot(), "edit");
  Deno.mkdirSync(dir, { recursive: true });
  const file = join(dir, `${Deno.pid}-${name}`);
  Deno.writeTextFileSync(file, text);
  try {
    const [program, ...args] = editorCommand().split(/\s+/);
    const status = await new Deno.Command(program, {
      args: [...args, file],
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (!status.success) {
      throw new Error(`the editor ${program} exited with code ${status.code}; nothing was saved`);
    }
    return Deno.readTextFileSync(file);
  } finally {
    try {
      Deno.removeSync(file);
    } catch { /* already gone */ }
  }
}
