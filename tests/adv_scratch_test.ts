import { makeKb, overrideEnv, runAlone } from "./helpers.ts";
import { promptHookOutput } from "../hooks/prompt.ts";
import { parsePayload } from "../core/hook/payload.ts";

const MB = 1 << 20;
const shapes: [string, string][] = [
  ["8MiB İ + secret", "İ".repeat(4 * MB) + " password=Tr0ub4dorz rotate cloudflare token"],
  ["password= x many", "password=abc ".repeat(600_000)],
  ["key=value many", "key=Zx9Q2mLp8Rt4Vb7N ".repeat(350_000)],
  ["token words 50k", Array.from({ length: 50_000 }, (_, i) => `token${i}=val${i}`).join(" ")],
  ["combining marks", "e\u0301".repeat(3 * MB)],
  ["zalgo", "r\u0336\u0317\u0355o\u0334\u0359tate ".repeat(200_000)],
  ["rtl", "\u202erotate\u202c cloudflare token ".repeat(200_000)],
  ["emoji zwj", "👩‍👩‍👧‍👦 rotate ".repeat(300_000)],
  ["whitespace only", " \t\n".repeat(2 * MB)],
  ["question marks", "?".repeat(7 * MB)],
  ["line numbers", "line 40 ".repeat(900_000)],
  ["camelCase ids", "fooBar() ".repeat(800_000)],
  ["dotted", "a.b.c.d.e.f.g.h ".repeat(400_000)],
  ["eyJ", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdefghij ".repeat(100_000)],
  ["url passwords", "https://u:p4ssw0rdX@h.example/ ".repeat(200_000)],
  ["-u user:", " -u a:b".repeat(800_000)],
  ["Bearer", "Bearer ".repeat(900_000)],
  ["--password", " --password x".repeat(500_000)],
  ["hangul", "한국어 ".repeat(1_000_000)],
  ["mixed cjk latin", "東京rotate".repeat(500_000)],
];

Deno.test("scratch timings", async (t) => {
  if (await runAlone(t)) return;
  await using kb = await makeKb();
  using _env = overrideEnv({ ...kb.env, KB_HOOK_DEBUG: "1" });
  await promptHookOutput(parsePayload(JSON.stringify({ session_id: "w", prompt: "How do I rotate a leaked Cloudflare token used by our CI?" })));
  for (const [name, prompt] of shapes) {
    const input = JSON.stringify({ session_id: `s-${name}`, prompt });
    const t = performance.now();
    let out = "", err: unknown;
    try { out = await promptHookOutput(parsePayload(input)); } catch (e) { err = e; }
    console.log(name.padEnd(20), (input.length / MB).toFixed(1), "MiB", (performance.now() - t).toFixed(0), "ms", out.length, err ? String(err).slice(0, 100) : "");
  }
});
