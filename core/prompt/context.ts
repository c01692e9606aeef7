/**
 * Whether a prompt refers to what is in front of the model (the conversation, the code, the
 * project's files) rather than asks the knowledge base about a topic, pure. It is read from the
 * prompt's grammar and from the shapes of its tokens, not from lists of topics; the knowledge
 * base's own vocabulary decides whether an identifier is one of its topics.
 *
 * - **Deixis**, in an instruction: the demonstratives and deictic adverbs, a closed class
 *   ({@link DEICTIC_WORDS}); "there" unless it is the existential "is there", "there are"; and
 *   "that" as the prompt's first or second word ("that's wrong", "undo that change"), where it
 *   is a demonstrative, not the relative pronoun of "files that match". A question that points
 *   ("how do we handle retries in this repo?") still asks the knowledge base.
 * - **The assistant**: "your" ("your last answer"), and "you" as the subject of a clause ("the
 *   regex you wrote", "why did you"), not after a present auxiliary or modal ("can you", "how
 *   do you"), a conjunction ("if you", "when you") or "thank".
 * - **The project**: a relative file name or path (`parser.py`, `src/api/client.ts`; a path
 *   from `/`, `~` or `$` names the system, which a knowledge base may well describe), a line
 *   number ("line 40"), or an identifier in code shape that no entry holds (lower camelCase
 *   `walkTree`, snake_case `usr_nm`, a call `parse()`; `known_hosts` is one an entry may hold).
 *
 * @module
 */
import { MAX_SPLIT_WORDS, splitWords, termOf } from "../text/tokenize.ts";

/** What a prompt refers to in front of the model, and the words that say so. */
export interface ContextReference {
  /** Deixis, the assistant, or a thing of the project. */
  kind: "deixis" | "assistant" | "file" | "line" | "identifier";
  /** The word or token of the prompt that refers to it. */
  text: string;
}

/**
 * The demonstratives and deictic adverbs of English's grammar for place and discourse: words
 * that point at something rather than name it. "That" and "there" have their own rules (see the
 * module notes); "it" is left out, being as often an anaphor of a word of the same prompt
 * ("download the file and unpack it"); so is "again", which as often reports that a problem came
 * back ("crashloopbackoff again after the deploy") as it points at what was done.
 */
export const DEICTIC_WORDS: readonly string[] = ["this", "these", "those", "here", "same"];

const DEICTIC = new Set(DEICTIC_WORDS);

/** The words a question starts with: English's interrogatives. */
const INTERROGATIVES = new Set(["how", "what", "why", "where", "when", "which", "who", "whose"]);

/**
 * Words after which "you" is not the assistant as a person: English's auxiliaries and modals of
 * the present (a request or a question to anyone: "can you", "how do you"), the conjunctions of
 * condition and time (the generic "you" of "if you", "when you"), and "thank". After a past
 * auxiliary it is the assistant ("why did you", "were you"): what it did.
 */
const BEFORE_GENERIC_YOU = new Set([
  "am",
  "are",
  "can",
  "could",
  "do",
  "does",
  "has",
  "have",
  "if",
  "is",
  "may",
  "might",
  "must",
  "shall",
  "should",
  "thank",
  "when",
  "will",
  "would",
]);

/** The forms of "to be" after which "there" is existential ("there is", "are there"). */
const FORMS_OF_BE = new Set(["is", "are", "was", "were", "be", "s", "isn", "aren", "wasn"]);

/**
 * A question's end: question marks right after a letter, a digit, or a closing quote or bracket
 * ("why?", "is it `x`?"), closing quotes or brackets after them. Not the `?` of code, after a
 * space or an operator: a ternary `a ? b : c`, `x ?? y`, a lazy `.*?` or `\d+?`.
 */
const QUESTION_END = /[\p{L}\p{N}"'`)\]]\?+["'`)\]]*$/u;

/** A word in capitals, as SQL's `WHERE` and `CASE WHEN` are written: a keyword, not a question. */
const CAPITALS = /^\P{L}*\p{Lu}{2,}(?!\p{L})/u;

/**
 * Whether a prompt asks (ends with "?" after a word, or starts with an interrogative not written
 * in capitals) rather than tells; `words` are its words, when they are at hand.
 */
export function isQuestion(prompt: string, words: string[] = splitWords(prompt)): boolean {
  return QUESTION_END.test(prompt.trimEnd()) ||
    (INTERROGATIVES.has(words[0]) && !CAPITALS.test(prompt));
}

/** The deictic (in an instruction) or assistant word of `prompt`, if any. */
function grammaticalReference(prompt: string): ContextReference | undefined {
  const words = splitWords(prompt);
  const tells = !isQuestion(prompt, words);
  for (let index = 0; index < words.length; index++) {
    const word = words[index];
    const before = words[index - 1] ?? "";
    const after = words[index + 1] ?? "";
    if (
      tells && (DEICTIC.has(word) || (word === "that" && index < 2) ||
        (word === "there" && !FORMS_OF_BE.has(before) && !FORMS_OF_BE.has(after)))
    ) return { kind: "deixis", text: word };
    if (word === "your" || (word === "you" && !BEFORE_GENERIC_YOU.has(before))) {
      return { kind: "assistant", text: word };
    }
  }
  return undefined;
}

/** Letters, digits, `_`, `-`, `.` and `/`: what a relative file name is made of. */
const PATH_CHARACTERS = /^[\w./-]+$/;

/** A file extension: a letter, then at most four letters or digits. */
const EXTENSION = /^[a-z][a-z0-9]{0,4}$/;

/**
 * Whether `token` is a relative file name (`parser.py`, `src/app.ts`, `.github/ci.yml`): not
 * `e.g.` or `1.5`, and not a path from `/`, `~` or `$`.
 */
function isRelativeFile(token: string): boolean {
  const dot = token.lastIndexOf(".");
  const name = token.slice(0, dot);
  return dot > 0 && EXTENSION.test(token.slice(dot + 1)) && PATH_CHARACTERS.test(token) &&
    !token.startsWith("/") && /[A-Za-z]/.test(name) && !name.endsWith("/") && token !== "e.g" &&
    token !== "i.e";
}

/** An identifier in code shape: lower camelCase, snake_case, or a call. */
const IDENTIFIER = /^(?:[a-z]{2,}[A-Z][a-z]\w*|[a-z][a-z0-9]*_\w*[a-z0-9]|[A-Za-z_][\w.]*\(\)?)$/;

/** The longest token looked at as a file name or an identifier; past it, a token is text. */
export const MAX_REFERENCE_LENGTH = 256;

/** A line of the code: "line 40", "lines 12-20". */
const LINE_NUMBER = /\blines? \d+/i;

/** Punctuation around a token that is not part of it: quotes, brackets, a sentence's end. */
const AROUND_TOKEN = /^[("'`[{<]+|[)"'`\]}>,.:;!?]+$/g;

/** A token without the punctuation around it; a call keeps its `()`. */
function bareToken(raw: string): string {
  const token = raw.replace(AROUND_TOKEN, "");
  return token.endsWith("(") && raw.includes("()") ? `${token})` : token;
}

/** The thing of the project a prompt's token names, if any (see the module notes). */
function projectReference(
  prompt: string,
  knows: (term: string) => boolean,
): ContextReference | undefined {
  const line = prompt.match(LINE_NUMBER);
  if (line) return { kind: "line", text: line[0] };
  for (const raw of prompt.split(/\s+/, MAX_SPLIT_WORDS)) {
    const token = bareToken(raw);
    if (token.length > MAX_REFERENCE_LENGTH) continue;
    if (isRelativeFile(token)) return { kind: "file", text: token };
    if (IDENTIFIER.test(token) && !knows(termOf(splitWords(token).join("")))) {
      return { kind: "identifier", text: token };
    }
  }
  return undefined;
}

/**
 * What `prompt` refers to in front of the model (see the module notes), or undefined when it
 * refers to nothing there. `knows` says whether some entry holds an index term: an identifier
 * the knowledge base holds (joined, as the index keeps `known_hosts` as "knownhost") is a topic.
 */
export function contextReference(
  prompt: string,
  knows: (term: string) => boolean,
): ContextReference | undefined {
  return grammaticalReference(prompt) ?? projectReference(prompt, knows);
}
