/**
 * Credentials in text: a pure, fast detector shared by everything that must not keep or publish
 * one (the hooks' caches, the judge's debug records; saves, imports and promotions refuse an
 * entry that holds one). It knows the shapes of common tokens (AWS access keys, GitHub, GitLab,
 * npm and Slack tokens, a few vendors' API keys, JSON web tokens), private key blocks (with key
 * material in them, not `...`), passwords in URLs (not a local database's well-known default,
 * `postgres:postgres@localhost`), passwords given to `mysql -p…`, high-entropy values next to
 * words such as `secret`, `token`, `password` or `key` (not a key id or fingerprint: `RSA key
 * 4AEE…`, `cache key v2-…`), and stated passwords ("my password is hunter2", not "the password is
 * separate").
 *
 * Every rule has literal triggers: its expression is compiled and run only when the lowercase
 * text holds one of them, so text with no credential costs a few substring searches. Every
 * quantifier is bounded, so no input makes a scan slower than linear times a small constant.
 *
 * @example
 * ```ts
 * findSecrets("aws_access_key_id = AKIAZ7Q3K9W2M5X8R4TB")[0].masked; // "AKIA…R4TB"
 * ```
 *
 * @module
 */
/** What kind of credential a finding is. */
export type SecretKind =
  | "aws-access-key"
  | "github-token"
  | "gitlab-token"
  | "npm-token"
  | "slack-token"
  | "slack-webhook"
  | "api-key"
  | "jwt"
  | "private-key"
  | "url-password"
  | "url-token"
  | "command-password"
  | "keyword-secret"
  | "stated-password";

/** Each {@link SecretKind} in words, for messages. */
export const SECRET_LABELS: Readonly<Record<SecretKind, string>> = {
  "aws-access-key": "an AWS access key",
  "github-token": "a GitHub token",
  "gitlab-token": "a GitLab token",
  "npm-token": "an npm token",
  "slack-token": "a Slack token",
  "slack-webhook": "a Slack webhook URL",
  "api-key": "an API key",
  "jwt": "a JSON web token",
  "private-key": "a private key block",
  "url-password": "a password in a URL",
  "url-token": "a token in a URL",
  "command-password": "a password on a command line",
  "keyword-secret": "a secret value",
  "stated-password": "a password",
};

/** One credential found in a text. */
export interface SecretFinding {
  /** What was found. */
  kind: SecretKind;
  /** Where the secret itself starts in the text (the value, not the word naming it). */
  start: number;
  /** Where it ends (exclusive). */
  end: number;
  /** The line it starts on, from 1. */
  line: number;
  /** The secret with all but a few characters at each end hidden, safe to print. */
  masked: string;
}

/** A detection rule: literal triggers (lowercase), then an expression and an acceptance test. */
interface Rule {
  kind: SecretKind;
  triggers: readonly string[];
  source: string;
  flags: string;
  /** The capture group holding the secret (0: the whole match). */
  group: number;
  /** Whether the captured value really is a secret; every match is when absent. */
  accept?: (value: string, match: RegExpExecArray) => boolean;
}

/** Words naming a secret value that may follow them (`GITHUB_TOKEN=…`, `"api_key": "…"`). */
export const SECRET_WORDS: string =
  "secret|token|passw(?:or)?d|passphrase|pwd|credentials?|auth|bearer|api[_-]?key|apikey|" +
  "private[_-]?key|access[_-]?key|key";

/** Words that say what a password is like, never a password themselves ("is expired"). */
// deno-fmt-ignore
const PASSWORD_STATE_WORDS: ReadonlySet<string> = new Set([
  "wrong", "incorrect", "correct", "invalid", "valid", "expired", "required", "optional", "stored",
  "hashed", "encrypted", "missing", "empty", "changed", "reset", "set", "unset", "not", "never",
  "still", "being", "also", "now", "the", "a", "an", "in", "on", "too", "weak", "strong", "long",
  "short", "same", "different", "saved", "sent", "shown", "hidden", "masked", "redacted",
]);

/** Placeholder passwords of documentation (`postgres://user:password@host`). */
// deno-fmt-ignore
const PLACEHOLDER_PASSWORDS: ReadonlySet<string> = new Set([
  "password", "pass", "passwd", "pwd", "pw", "secret", "token", "example", "changeme", "changeit",
  "yourpassword", "your-password", "your_password", "mypassword", "my-password",
]);

/** Passwords a database or broker ships with, no secret on a local address. */
// deno-fmt-ignore
const LOCAL_DEFAULT_PASSWORDS: ReadonlySet<string> = new Set([
  "postgres", "root", "admin", "guest", "mysql", "test", "dev", "user", "default", "rabbitmq",
]);

/** A host that is this machine (or a container's view of it): the start of what follows `@`. */
const LOCAL_HOST =
  /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0|host\.docker\.internal)(?![\w.-])/i;

/**
 * Whether the password of a URL is a local default: the user's own name (the match's first
 * group, {@link URL_USER}'s) or a password a database ships with, on a local host
 * (`postgres://postgres:postgres@localhost`, `amqp://guest:guest@…`).
 */
function isLocalDefault(value: string, match: RegExpExecArray): boolean {
  const after = match.input.slice(
    match.index + match[0].length,
    match.index + match[0].length + 64,
  );
  if (!LOCAL_HOST.test(after)) return false;
  const password = value.toLowerCase();
  return password === match[1].toLowerCase() || LOCAL_DEFAULT_PASSWORDS.has(password);
}

/**
 * Whether a stated password ("the password is …") is one: quoted, or holding a digit, a symbol or
 * mixed case, as passwords are; a plain word is prose ("the password is separate").
 */
function isStatedPassword(value: string, match: RegExpExecArray): boolean {
  if (PASSWORD_STATE_WORDS.has(value.toLowerCase()) || isPlaceholder(value)) return false;
  const quoted = /["'`]$/.test(match[0].slice(0, match[0].lastIndexOf(value)));
  return quoted || hasDigit(value) || /[^A-Za-z]/.test(value) ||
    (/[a-z]/.test(value) && /[A-Z]/.test(value.slice(1)));
}

/** Words before a bare `key` that make what follows it a secret (`secret key …`, `API key …`). */
const SECRET_KEY_WORDS = /(?:secret|private|access|api|auth|master|encryption)[ \t]{1,5}$/i;

/**
 * Whether a `key` followed by blanks (no `=` or `:`) names an identifier, not a secret: `RSA key
 * 4AEE18F8…` in gpg's output, `cache key v2-…`. Only a word such as `secret` or `API` before it
 * makes it a secret's name.
 */
function isKeyIdentifier(match: RegExpExecArray): boolean {
  if (match[1] !== undefined || !/^key["']?[ \t]/i.test(match[0])) return false;
  return !SECRET_KEY_WORDS.test(match.input.slice(Math.max(0, match.index - 40), match.index));
}

/**
 * What a keyword rule's match says before its value: the secret's name and the `=` or `:` after
 * it (`DB_PASSWORD=`, `secrets: `), never the value, which may itself read `PASSWORD`.
 */
function secretName(match: RegExpExecArray): string {
  return match[0].slice(0, match[0].length - (match[2] ?? "").length);
}

/**
 * Whether the secret's name ends by saying its value is a file (`credentials_path = "…json"`,
 * `key_file:`, `tokenFile=`): the value names where a secret is kept, it is not one. Or the name
 * is a file's, followed by blanks (`ssh -i key-pair.pem user@2001:db8::1`): the key is in the
 * file, and what comes after is another word of the command.
 */
function namesAFile(match: RegExpExecArray): boolean {
  const name = /^[\w.-]*/.exec(secretName(match))?.[0] ?? "";
  return /(?:path|file|filename|dir)$/i.test(name) ||
    (match[1] === undefined && FILE_ENDING.test(name));
}

/** The ending of a file's name: `.pem`, `.json`, `.mp4`. */
const FILE_ENDING = /\.[A-Za-z][A-Za-z0-9]{0,4}$/;

/**
 * A file's path inside a folder, words joined by `/` and ending in a file's name
 * (`videos/large.mp4`, an S3 object's key): base64 has no `.` to end so.
 */
const FILE_PATH = /^[\w-]+(?:\/[\w.-]+)*\/[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,4}$/;

/**
 * Whether the secret's name is a key press's: a key binding or map (`keybind = super+shift+
 * period=increase_font_size:2`, `"keybindings":`, `keymap:`), a keyboard, a keystroke or key code.
 * The value names keys and an action; a name that goes on past the word (`keymap_token`) still
 * names a secret.
 */
function namesAKeyPress(match: RegExpExecArray): boolean {
  const name = /^[\w.-]*/.exec(secretName(match))?.[0] ?? "";
  return /^key(?:binds?|bindings?|maps?|board|strokes?|codes?)$/i.test(name);
}

/**
 * Whether the secret's name is a public key's: `publicKey`, `PUBLIC_KEY`, `public-key`, `public
 * key:` (a web push server's VAPID key, a wallet's address), or a WebSocket handshake's
 * `Sec-WebSocket-Key:` (a nonce sent in the clear). It is given out to be read; a name that goes
 * on past `key` (`public_key_password`) still names a secret.
 */
function namesAPublicKey(match: RegExpExecArray): boolean {
  const name = /^[\w.-]*/.exec(secretName(match))?.[0] ?? "";
  const before = match.input.slice(Math.max(0, match.index - 14), match.index);
  return /^keys?$/i.test(name) && /(?:public[ \t_-]?|sec-websocket-)$/i.test(before);
}

/**
 * Whether the secret's name is a key's id: `Key-Pair-Id` (CloudFront's, in every signed URL it
 * serves), `key_id`, `keyId`, `private_key_id` (beside the key in a service account's file). It
 * names which key signed or is meant, not the key; a secret's own id (`secret_id`) is not one, nor
 * AWS's access key id (`AccessKeyId`), the half of a credential that scanners report.
 */
function namesAKeyId(match: RegExpExecArray): boolean {
  const name = /^[\w.-]*/.exec(secretName(match))?.[0] ?? "";
  return /^(?:private[_-]?)?key[-_.]?(?:pair[-_.]?)?id$/i.test(name);
}

/**
 * Whether a bare `key`, `keys` or `cache-key` names a cache's key: words joined by `-` around a
 * file digest (md5, sha1 or sha256 in hex), as CI logs it (`Cache not found for input keys:
 * Linux-node-<sha256>-3`). It names what was hashed; no credential reads so.
 */
function isCacheKey(value: string, match: RegExpExecArray): boolean {
  const name = /^[\w.-]*/.exec(secretName(match))?.[0] ?? "";
  return /^(?:cache[-_]?|restore[-_]?)?keys?$/i.test(name) &&
    /^(?:[A-Za-z][\w.]*-){2,}(?:[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{64})(?:-[\w.]+)*$/.test(value);
}

/**
 * A value of letters only, in words joined by `-` or `_`, one of which says what it stands for:
 * `RANDOM_PASSWORD`, `docker-password`, `YOUR-ACCESS-TOKEN`, `my_secret`.
 */
const NAMED_PLACEHOLDER =
  /^(?:[a-z]+[-_])*(?:passw(?:or)?d|pwd|secret|token|key|credentials?)(?:[-_][a-z]+)*$/i;

/**
 * A credential of the kind AWS's documentation shows (`AKIAIOSFODNN7EXAMPLE`,
 * `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`, `9drTJvcXLB89EXAMPLELB8923FB892xMFI`): a key's
 * shape (20 characters or more of letters, digits, `/`, `+` and `=`) holding EXAMPLE. Notes copy
 * them, they unlock nothing, and AWS's own git-secrets lets them through. A generated key holds
 * these seven capitals in a row about once in 32⁷ keys; a password a person chose
 * (`Tr0ubEXAMPLE&3`) is not of that shape, and is still a secret.
 */
const DOCUMENTED_EXAMPLE = /^(?=[A-Za-z0-9/+=]{20,}$).*EXAMPLE/;

/**
 * True for values that stand for a secret instead of being one: `$VAR`, `<…>`, `{…}`, `***`,
 * words naming what goes there (`RANDOM_PASSWORD`, `key-password`), AWS's documented examples
 * (`…EXAMPLEKEY`), and values cut short
 * (`node-cache-Linux-x64-...`).
 */
function isPlaceholder(value: string): boolean {
  if (/[$<>{}()[\]%…]|\.\.\./.test(value)) return true;
  if (PLACEHOLDER_PASSWORDS.has(value.toLowerCase()) || NAMED_PLACEHOLDER.test(value)) return true;
  if (DOCUMENTED_EXAMPLE.test(value)) return true;
  return [...value].every((character) => character === value[0]);
}

/**
 * The password of GitHub's token-as-user-name URLs (`https://TOKEN:x-oauth-basic@github.com`):
 * the same fixed word for everyone, never a secret itself.
 */
const OAUTH_BASIC = "x-oauth-basic";

/** A URL up to its password: the scheme, then the user name (captured) and its `:`. */
const URL_USER = "\\b[A-Za-z][A-Za-z0-9+.-]{1,20}://([^\\s:/?#@]{1,200}):";

/** GitHub's `https://TOKEN:x-oauth-basic@…`, the token captured: match it with the `i` flag. */
export const OAUTH_URL_SOURCE = `${URL_USER}${OAUTH_BASIC}@`;

const RULES: readonly Rule[] = [
  {
    // Access key ids only: long-term (AKIA), temporary (ASIA) and service-specific (ABIA, ACCA).
    // AWS gives users, roles, groups, policies and CloudFront's public keys ids of the same shape
    // (AIDA, AROA, AGPA, ANPA, APKA…): `aws iam get-role` prints them, and they unlock nothing.
    kind: "aws-access-key",
    triggers: ["akia", "asia", "abia", "acca"],
    source: "\\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\\b",
    flags: "g",
    group: 0,
    accept: (value) => !DOCUMENTED_EXAMPLE.test(value),
  },
  {
    kind: "github-token",
    triggers: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
    source: "\\b(?:gh[pousr]_[A-Za-z0-9]{36,100}|github_pat_[A-Za-z0-9_]{22,120})\\b",
    flags: "g",
    group: 0,
  },
  {
    kind: "gitlab-token",
    triggers: ["glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "gloas-", "glsoat-", "glft-"],
    source: "\\bgl(?:pat|dt|rt|ptt|cbt|oas|soat|ft)-[A-Za-z0-9_-]{20,100}",
    flags: "g",
    group: 0,
  },
  {
    kind: "npm-token",
    triggers: ["npm_"],
    source: "\\bnpm_[A-Za-z0-9]{36}\\b",
    flags: "g",
    group: 0,
  },
  {
    kind: "slack-token",
    triggers: ["xox"],
    source: "\\bxox[abposre]-[A-Za-z0-9-]{10,120}",
    flags: "g",
    group: 0,
  },
  {
    kind: "slack-webhook",
    triggers: ["hooks.slack.com"],
    source: "hooks\\.slack\\.com/(?:services|workflows)/([A-Za-z0-9/_-]{20,120})",
    flags: "g",
    group: 1,
  },
  {
    kind: "api-key",
    triggers: ["aiza", "sk-", "sk_live_", "rk_live_", "sg."],
    source: "\\b(?:AIza[0-9A-Za-z_-]{35}|sk-(?:ant-|proj-)?[A-Za-z0-9_-]{32,200}|" +
      "[sr]k_live_[A-Za-z0-9]{20,120}|SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}(?![\\w-]))",
    flags: "g",
    group: 0,
    accept: (value) => hasDigit(value),
  },
  {
    kind: "url-password",
    triggers: ["://"],
    source: `${URL_USER}([^\\s/?#@]{1,200})@`,
    flags: "g",
    group: 2,
    accept: (value, match) =>
      value.toLowerCase() !== OAUTH_BASIC && !isPlaceholder(value) && !isLocalDefault(value, match),
  },
  {
    kind: "url-token",
    triggers: [OAUTH_BASIC],
    // GitHub's `https://TOKEN:x-oauth-basic@github.com/…`: the user name is the secret.
    source: OAUTH_URL_SOURCE,
    flags: "gi",
    group: 1,
    accept: (value) => isHighEntropy(value),
  },
  {
    kind: "command-password",
    triggers: ["mysql", "mariadb"],
    // `mysql … -pSECRET`: the password attached to `-p` (a bare `-p` asks for it).
    source: "\\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\\b[^\\n|;&]{0,200}?" +
      "[ \\t]-p[\"']?([^\\s\"'`|;&]{1,200})",
    flags: "g",
    group: 1,
    accept: (value) => !isPlaceholder(value),
  },
  {
    kind: "stated-password",
    triggers: ["pass", "pwd", "pin"],
    source: "\\b(?:passw(?:or)?d|passphrase|passcode|pwd|pin)\\s{1,5}(?:is|was)\\s{1,5}" +
      "[\"'`]?([^\\s\"'`]{4,200}?)[\"'`]?[.,;:!?]?(?=\\s|$)",
    flags: "gi",
    group: 1,
    accept: isStatedPassword,
  },
  {
    kind: "keyword-secret",
    triggers: ["secret", "token", "pass", "pwd", "cred", "auth", "bearer", "key"],
    // The word, then `=`, `:`, `=>` or `:=` (group 1), or blanks (never a line break), the value.
    source: `(?:${SECRET_WORDS})[\\w.-]{0,30}["']?` +
      "(?:[ \\t]{0,5}([:=]>?|:=)[ \\t]{0,5}|[ \\t]{1,5}(?:(?:is|was)[ \\t]{1,5})?)" +
      // The value ends where a URL's next parameter starts (`&user=`, `&amp;`): an `&` in it
      // otherwise is part of it (`Tr0ub4dor&3`).
      "[\"'`]?((?:[^\\s\"'`,;&]|&(?!amp;|[\\w.-]{1,40}=)){8,400})",
    flags: "gi",
    group: 2,
    accept: (value, match) =>
      startsWord(match) && !isKeyIdentifier(match) && !namesAFile(match) &&
      !namesAKeyPress(match) && !namesAPublicKey(match) && !namesAKeyId(match) &&
      !isCacheKey(value, match) &&
      (isHighEntropy(value) ||
        (match[1] !== undefined && /passw|pwd/i.test(secretName(match)) &&
          isPasswordLiteral(value))),
  },
];

/**
 * The most findings of one kind a scan reports: a text holding more is reported by its first
 * ones, and a hostile text of a million token-shaped strings costs no more than a few thousand.
 */
export const MAX_FINDINGS_PER_KIND = 1_000;

/** Compiled on first use: most texts never need most rules. */
const compiled = new Map<Rule, RegExp>();

function expression(rule: Rule): RegExp {
  let regex = compiled.get(rule);
  if (!regex) compiled.set(rule, regex = new RegExp(rule.source, rule.flags));
  regex.lastIndex = 0;
  return regex;
}

/** Whether `value` holds a digit. */
function hasDigit(value: string): boolean {
  return /\d/.test(value);
}

/** Shannon entropy of `text`, in bits per character. */
export function shannonEntropy(text: string): number {
  if (!text) return 0;
  const counts = new Map<string, number>();
  for (const character of text) counts.set(character, (counts.get(character) ?? 0) + 1);
  const length = [...text].length;
  let bits = 0;
  for (const count of counts.values()) {
    const share = count / length;
    bits -= share * Math.log2(share);
  }
  return bits;
}

/** A value made of words and dots (`process.env.TOKEN`): a name, not a secret. */
function isDottedName(value: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(value);
}

/**
 * A value of words run together, camel case or joined by `/`, `-`, `_`, `.` or `:`, each word a
 * few capitals at most and then small letters, or `Id` (`predefinedCredentialType`,
 * `Filson/Switzer/JetBrains`, `XMLHttpRequest`, `Basic::ControllerMethods.http_basic_auth`,
 * `fk_question_categories_questionId`): a name. A generated string of mixed case has runs of one
 * small letter between capitals (`DLXBMPbtamCaSTUy…`), which no other word is.
 */
function isCompoundName(value: string): boolean {
  return /^(?:[A-Z]{0,4}[a-z]{2,}|Id|[/._:-])+$/.test(value);
}

/**
 * A value that starts as a path (`./`, `/`, `~`) or an address does (`https://`, `s3://`,
 * `git+ssh://`): it names where something is, not a secret.
 */
const PATH_OR_ADDRESS = /^(?:[./~]|[a-z][a-z0-9+.-]{0,20}:\/\/)/i;

/**
 * Whether `value` (at least 16 characters) looks random enough to be a generated secret: printable
 * ASCII, as generated secrets are (so never prose in another script), with a digit, or with a
 * capital right after a small letter (`…bTq…`, not the capital of a word: `Wiederherstellungs…`)
 * past 24 characters and not only words run together (`predefinedCredentialType`), and at least
 * 3.3 bits of entropy a character; never a placeholder, a path, a URL, a dotted name or a `0x`
 * number (a key id, an address).
 */
export function isHighEntropy(value: string): boolean {
  if (value.length < 16 || isPlaceholder(value) || isDottedName(value)) return false;
  if (/[^\x21-\x7e]/.test(value)) return false;
  if (PATH_OR_ADDRESS.test(value) || FILE_PATH.test(value) || /^0x[0-9a-f]+$/i.test(value)) {
    return false;
  }
  const generatedCase = /[a-z][A-Z]/.test(value) && !isCompoundName(value);
  if (!hasDigit(value) && !(generatedCase && value.length >= 24)) return false;
  return shannonEntropy(value) >= 3.3;
}

/**
 * A password given as a literal after `password=`/`password:`: it holds a digit or a symbol
 * (`hunter2`, `P@ss!`), so `password: string`, `password = config.value` or the path of
 * `--password-file=/run/secrets/db` are not one; nor are words in a script other than Latin
 * (`PASSWORD=任意のパスワード`, "any password", or prose after `password :`), nor field names
 * joined by colons (`GID:user_list` in `group_name:password:GID:user_list`, a file format).
 */
function isPasswordLiteral(value: string): boolean {
  if (isPlaceholder(value) || isDottedName(value) || value.length < 6) return false;
  if (PATH_OR_ADDRESS.test(value)) return false;
  if (/(?!\p{Script=Latin})\p{L}/u.test(value) || /^[A-Za-z_]+(?::[A-Za-z_]+)+$/.test(value)) {
    return false;
  }
  return hasDigit(value) || /[^A-Za-z0-9]/.test(value);
}

/**
 * Whether the word naming a secret starts a word of its own: `DB_PASSWORD`, `clientSecret` and
 * `api-key` do, the `passwd` of `smbpasswd` does not (a lowercase letter runs into it).
 */
function startsWord(match: RegExpExecArray): boolean {
  const before = match.input[match.index - 1] ?? "";
  return !(/[a-z]/.test(before) && /[a-z]/.test(match[0][0]));
}

/**
 * `secret` with all but a few characters at each end hidden: `AKIA…MPLE`. At most a quarter of
 * it, and at most 4 characters at each end, are shown; a secret of under 8 characters is `…`.
 */
export function maskSecret(secret: string): string {
  const characters = [...secret];
  const shown = Math.min(4, Math.floor(characters.length / 4));
  if (shown < 2) return "…";
  return `${characters.slice(0, shown).join("")}…${characters.slice(-shown).join("")}`;
}

/** How far past its BEGIN line a private key block's key material is looked for. */
const KEY_MATERIAL_REACH = 512;

/**
 * Whether `text` holds key material: a run of base64 with a digit, a `+` or `/`, or small and
 * capital letters both, not a word (`...`, `<your key here>`, `YOUR_KEY`, `contents`).
 */
function holdsKeyMaterial(text: string): boolean {
  for (const [run] of text.matchAll(/[A-Za-z0-9+/=]{8,}/g)) {
    if (/[\d+/]/.test(run) || (/[a-z]/.test(run) && /[A-Z]/.test(run))) return true;
  }
  return false;
}

/**
 * The private key blocks of `text`: from the BEGIN line to its END line (or the BEGIN line), when
 * key material follows the BEGIN line; a block that shows only its shape (`...` between the lines,
 * as a note on keys writes it) holds no key.
 */
function privateKeyBlocks(text: string, lower: string): SecretFinding[] {
  if (!lower.includes("private key")) return [];
  const found: SecretFinding[] = [];
  const begin = /-----BEGIN (?:[A-Z0-9]{1,20} ){0,3}PRIVATE KEY(?: BLOCK)?-----/g;
  let endMarker = -2; // -2: not searched yet; -1: no END line left
  for (const match of text.matchAll(begin)) {
    if (found.length >= MAX_FINDINGS_PER_KIND) break;
    const start = match.index;
    // Searched again only past the last one found: a text of BEGIN lines alone stays linear.
    if (endMarker === -2 || (endMarker >= 0 && endMarker < start)) {
      endMarker = text.indexOf("-----END ", start + match[0].length);
    }
    const endDashes = endMarker < 0 ? -1 : text.indexOf("-----", endMarker + 9);
    const end = endDashes < 0 ? start + match[0].length : endDashes + 5;
    // The key material is all before the next dashes: its END line's, or another BEGIN line's.
    const after = start + match[0].length;
    const dashes = text.indexOf("-----", after);
    const reach = Math.min(dashes < 0 ? text.length : dashes, after + KEY_MATERIAL_REACH);
    if (!holdsKeyMaterial(text.slice(after, reach))) continue;
    found.push({ kind: "private-key", start, end, line: 0, masked: `${match[0]}…` });
  }
  return found;
}

/** Whether one dot-separated part of a run can begin a JSON web token (`eyJ…`, base64 of `{"`). */
function isTokenHead(part: string): boolean {
  return part.length >= 11 && part.startsWith("eyJ");
}

/**
 * The JSON web tokens of `text`: three dot-separated base64url parts, the first two JSON. Found
 * by splitting runs of base64url characters, not by an expression, which would rescan a long run
 * from each `eyJ` in it.
 */
function jsonWebTokens(text: string, lower: string): SecretFinding[] {
  if (!lower.includes("eyj")) return [];
  const found: SecretFinding[] = [];
  for (const run of text.matchAll(/[A-Za-z0-9_.-]{30,4096}/g)) {
    if (found.length >= MAX_FINDINGS_PER_KIND) break;
    const parts = run[0].split(".");
    let offset = run.index;
    for (let index = 0; index < parts.length && found.length < MAX_FINDINGS_PER_KIND; index++) {
      const [head, claims, signature] = parts.slice(index, index + 3);
      if (isTokenHead(head) && claims && isTokenHead(claims) && (signature?.length ?? 0) >= 8) {
        const end = offset + head.length + claims.length + signature.length + 2;
        found.push({ kind: "jwt", start: offset, end, line: 0, masked: "" });
        offset = end + 1;
        index += 2;
      } else offset += head.length + 1;
    }
  }
  return found;
}

/** The line (from 1) of `offset`, given the offsets of the text's newlines. */
function lineOf(offset: number, lines: number[]): number {
  let low = 0;
  let high = lines.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (lines[middle] <= offset) low = middle + 1;
    else high = middle;
  }
  return low + 1;
}

/** The offsets of the newlines of `text`. */
function newlines(text: string): number[] {
  const offsets: number[] = [];
  for (let index = text.indexOf("\n"); index >= 0; index = text.indexOf("\n", index + 1)) {
    offsets.push(index);
  }
  return offsets;
}

function ruleFindings(text: string, lower: string, rule: Rule): SecretFinding[] {
  if (!rule.triggers.some((trigger) => lower.includes(trigger))) return [];
  const found: SecretFinding[] = [];
  const regex = expression(rule);
  for (
    let match = regex.exec(text);
    match && found.length < MAX_FINDINGS_PER_KIND;
    match = regex.exec(text)
  ) {
    const value = match[rule.group];
    if (value && (!rule.accept || rule.accept(value, match))) {
      const start = match.index + match[0].lastIndexOf(value);
      found.push({ kind: rule.kind, start, end: start + value.length, line: 0, masked: "" });
    }
    if (match[0].length === 0) regex.lastIndex++;
  }
  return found;
}

/**
 * Every credential in `text` (at most {@link MAX_FINDINGS_PER_KIND} of a kind), in order of
 * position, overlapping findings merged into the first (a token inside a private key block is
 * that block). Each names its kind, its place (offsets
 * and line) and a masked form that is safe to print.
 */
export function findSecrets(text: string): SecretFinding[] {
  const lower = text.toLowerCase();
  const all = [...privateKeyBlocks(text, lower), ...jsonWebTokens(text, lower)];
  for (const rule of RULES) all.push(...ruleFindings(text, lower, rule));
  if (!all.length) return all;
  all.sort((a, b) => a.start - b.start || b.end - a.end);
  const lines = newlines(text);
  const kept: SecretFinding[] = [];
  for (const finding of all) {
    const last = kept.at(-1);
    if (last && finding.start < last.end) continue;
    finding.line = lineOf(finding.start, lines);
    finding.masked ||= maskSecret(text.slice(finding.start, finding.end));
    kept.push(finding);
  }
  return kept;
}

/** Whether `text` holds any credential {@link findSecrets} knows. */
export function hasSecret(text: string): boolean {
  return findSecrets(text).length > 0;
}

/** `text` with every credential replaced by its masked form: safe to log or print. */
export function scrubSecrets(text: string): string {
  let scrubbed = "";
  let from = 0;
  for (const finding of findSecrets(text)) {
    scrubbed += text.slice(from, finding.start) + finding.masked;
    from = finding.end;
  }
  return scrubbed + text.slice(from);
}

/**
 * Whether one word (a run of letters and digits, as the tokenizer makes them) looks like a
 * credential or a generated token on its own, without context: 12 characters or more that mix
 * letters and digits, or 20 or more of high entropy. Such a word is never kept.
 */
export function looksLikeToken(word: string): boolean {
  if (word.length < 12) return false;
  // A letter: ASCII, or any character past ASCII.
  if (/\d/.test(word) && /[A-Za-z\u0080-\uffff]/.test(word)) return true;
  return word.length >= 20 && shannonEntropy(word) >= 3.9;
}
