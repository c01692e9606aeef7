/**
 * An English suffix stemmer after M. F. Porter's 1980 algorithm ("An algorithm for suffix
 * stripping"), so "rotating", "rotated" and "rotation" all meet at "rotat". Pure and allocation
 * light: it runs on every prompt token.
 *
 * @module
 */

/**
 * Whether the letter at `index` is a consonant: not a, e, i, o or u, and a y only at the start or
 * after a vowel. The y's of a run alternate from the letter before the run, so that letter is
 * found by a walk back, not by one call per y.
 */
function isConsonant(word: string, index: number): boolean {
  const char = word[index];
  if ("aeiou".includes(char)) return false;
  if (char !== "y") return true;
  let start = index;
  while (start > 0 && word[start - 1] === "y") start--;
  const firstIsConsonant = start === 0 || "aeiou".includes(word[start - 1]);
  return ((index - start) % 2 === 0) === firstIsConsonant;
}

/** Porter's m: the number of vowel-consonant sequences in `stem`. */
function measure(stem: string): number {
  let count = 0;
  let index = 0;
  const length = stem.length;
  while (index < length && isConsonant(stem, index)) index++;
  while (index < length) {
    while (index < length && !isConsonant(stem, index)) index++;
    if (index >= length) break;
    while (index < length && isConsonant(stem, index)) index++;
    count++;
  }
  return count;
}

function hasVowel(stem: string): boolean {
  for (let index = 0; index < stem.length; index++) {
    if (!isConsonant(stem, index)) return true;
  }
  return false;
}

function endsDoubleConsonant(word: string): boolean {
  const last = word.length - 1;
  return last > 0 && word[last] === word[last - 1] && isConsonant(word, last);
}

/** Consonant-vowel-consonant at the end, the last not w, x or y ("hop", not "hoop"). */
function endsShortSyllable(word: string): boolean {
  const last = word.length - 1;
  return last >= 2 && isConsonant(word, last) && !isConsonant(word, last - 1) &&
    isConsonant(word, last - 2) && !"wxy".includes(word[last]);
}

/** Suffix rules, [suffix, replacement], in the order they are tried. */
type Rules = ReadonlyArray<readonly [string, string]>;

/**
 * Rules by the last letter of their suffix, each group in Porter's order: a word is tried against
 * the few rules that can end it, not all of them.
 * Written out grouped: building the groups when the module loads cost a hook more than it saved.
 */
type RuleTable = Readonly<Record<string, Rules>>;

/** Replace the first matching suffix whose stem satisfies `condition`; `null` if none matched. */
function replaceSuffix(
  word: string,
  table: RuleTable,
  condition: (stem: string) => boolean,
): string | null {
  const rules = table[word[word.length - 1]];
  if (!rules) return null;
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index];
    if (word.endsWith(rule[0])) {
      const stem = word.slice(0, word.length - rule[0].length);
      return condition(stem) ? stem + rule[1] : word;
    }
  }
  return null;
}

const STEP2: RuleTable = {
  l: [["ational", "ate"], ["tional", "tion"]],
  i: [
    ["enci", "ence"],
    ["anci", "ance"],
    ["bli", "ble"],
    ["alli", "al"],
    ["entli", "ent"],
    ["eli", "e"],
    ["ousli", "ous"],
    ["aliti", "al"],
    ["iviti", "ive"],
    ["biliti", "ble"],
    ["logi", "log"],
  ],
  r: [["izer", "ize"], ["ator", "ate"]],
  n: [["ization", "ize"], ["ation", "ate"]],
  m: [["alism", "al"]],
  s: [["iveness", "ive"], ["fulness", "ful"], ["ousness", "ous"]],
};

const STEP3: RuleTable = {
  e: [["icate", "ic"], ["ative", ""], ["alize", "al"]],
  i: [["iciti", "ic"]],
  l: [["ical", "ic"], ["ful", ""]],
  s: [["ness", ""]],
};

const STEP4: RuleTable = {
  t: [["ement", ""], ["ment", ""], ["ant", ""], ["ent", ""]],
  e: [
    ["ance", ""],
    ["ence", ""],
    ["able", ""],
    ["ible", ""],
    ["ate", ""],
    ["ive", ""],
    ["ize", ""],
  ],
  m: [["ism", ""]],
  i: [["iti", ""]],
  s: [["ous", ""]],
  n: [["ion", ""]],
  l: [["al", ""]],
  r: [["er", ""]],
  c: [["ic", ""]],
  u: [["ou", ""]],
};

function step1(word: string): string {
  if (word.endsWith("sses") || word.endsWith("ies")) word = word.slice(0, -2);
  else if (word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us")) {
    word = word.slice(0, -1);
  }
  if (word.endsWith("eed")) {
    return measure(word.slice(0, -3)) > 0 ? word.slice(0, -1) : word;
  }
  const suffix = word.endsWith("ed") ? "ed" : word.endsWith("ing") ? "ing" : "";
  if (suffix && hasVowel(word.slice(0, -suffix.length))) {
    word = word.slice(0, -suffix.length);
    if (word.endsWith("at") || word.endsWith("bl") || word.endsWith("iz")) return word + "e";
    if (endsDoubleConsonant(word) && !"lsz".includes(word[word.length - 1])) {
      return word.slice(0, -1);
    }
    if (measure(word) === 1 && endsShortSyllable(word)) return word + "e";
  }
  return word;
}

/**
 * The longest word stemmed: no English word is longer, and the rules' cost grows with the
 * square of a word's length (a run of y's), so a longer word comes back whole.
 */
export const MAX_STEM_LENGTH = 64;

/**
 * Reduce an English word (lowercase ASCII letters) to its stem. Words of three letters or
 * fewer or of more than {@link MAX_STEM_LENGTH}, and words with anything but a-z, come back
 * unchanged.
 *
 * @example
 * ```ts
 * stem("rotating"); // "rotat"
 * stem("tokens"); // "token"
 * ```
 */
export function stem(word: string): string {
  if (word.length <= 3 || word.length > MAX_STEM_LENGTH) return word;
  return /^[a-z]+$/.test(word) ? stemWord(word) : word;
}

function stemWord(word: string): string {
  word = step1(word);
  if (word.endsWith("y") && hasVowel(word.slice(0, -1))) word = word.slice(0, -1) + "i";
  word = replaceSuffix(word, STEP2, (base) => measure(base) > 0) ?? word;
  word = replaceSuffix(word, STEP3, (base) => measure(base) > 0) ?? word;
  const step4 = replaceSuffix(word, STEP4, (base) =>
    measure(base) > 1 &&
    (!word.endsWith("ion") || base.endsWith("s") || base.endsWith("t")));
  if (step4 !== null) word = step4;
  if (word.endsWith("e")) {
    const base = word.slice(0, -1);
    const m = measure(base);
    if (m > 1 || (m === 1 && !endsShortSyllable(base))) word = base;
  }
  if (measure(word) > 1 && word.endsWith("ll")) word = word.slice(0, -1);
  return word;
}
