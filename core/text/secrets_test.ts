import { assert, assertEquals } from "@std/assert";
import {
  findSecrets,
  hasSecret,
  isHighEntropy,
  looksLikeToken,
  maskSecret,
  scrubSecrets,
  type SecretKind,
} from "./secrets.ts";
import { inSecretTest, secretWords } from "./secret_words.ts";

/** One text per kind, and the secret in it. */
const SAMPLES: [SecretKind, string, string][] = [
  ["aws-access-key", "aws_access_key_id = AKIAZ7Q3K9W2M5X8R4TB", "AKIAZ7Q3K9W2M5X8R4TB"],
  [
    "github-token",
    "export GH=ghp_1234567890abcdefghijklmnopqrstuvwxyzAB",
    "ghp_1234567890abcdefghijklmnopqrstuvwxyzAB",
  ],
  [
    "github-token",
    "use github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz now",
    "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
  ],
  ["gitlab-token", "token glpat-Ab3dEfGh1jKlMn0pQrSt here", "glpat-Ab3dEfGh1jKlMn0pQrSt"],
  [
    "npm-token",
    "//registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789",
    "npm_abcdefghijklmnopqrstuvwxyz0123456789",
  ],
  ["slack-token", "SLACK=xoxb-1234567890-abcdefGHIJ", "xoxb-1234567890-abcdefGHIJ"],
  [
    "slack-webhook",
    "post to https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
    "T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
  ],
  [
    "api-key",
    "ANTHROPIC_API_KEY is sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789",
    "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789",
  ],
  [
    "jwt",
    "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N",
  ],
  [
    "private-key",
    "key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n" +
    "-----END OPENSSH PRIVATE KEY-----\ndone",
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n" +
    "-----END OPENSSH PRIVATE KEY-----",
  ],
  ["url-password", "DATABASE_URL=postgres://admin:s3cr3t-pw@db.example.com/app", "s3cr3t-pw"],
  [
    "keyword-secret",
    "aws_secret_access_key = k3Pq9ZtW2mXv7LrN/b5Yc8HdJ4fGs6TaQ1eUo0Wi",
    "k3Pq9ZtW2mXv7LrN/b5Yc8HdJ4fGs6TaQ1eUo0Wi",
  ],
  [
    "keyword-secret",
    '{"client_secret": "9f8e7d6c5b4a39281706f5e4d3c2b1a0"}',
    "9f8e7d6c5b4a39281706f5e4d3c2b1a0",
  ],
  ["keyword-secret", "DB_PASSWORD=Tr0ub4dor&3", "Tr0ub4dor&3"],
  ["stated-password", "fyi my password is hunter2secret, keep it", "hunter2secret"],
  ["stated-password", "The wifi passphrase was 'correcthorse'.", "correcthorse"],
];

Deno.test("findSecrets: each kind is found, with its place and a masked form", () => {
  for (const [kind, text, secret] of SAMPLES) {
    const found = findSecrets(text);
    assertEquals(found.length, 1, `${kind}: ${text} → ${JSON.stringify(found)}`);
    assertEquals(found[0].kind, kind, text);
    assertEquals(text.slice(found[0].start, found[0].end), secret, text);
    assert(!found[0].masked.includes(secret), `${kind}: the mask hides the secret`);
  }
});

Deno.test("findSecrets: lines count from 1, and findings come in order", () => {
  const text = "line one\nAKIAZ7Q3K9W2M5X8R4TB\n\nmy password is hunter2secret";
  const found = findSecrets(text);
  assertEquals(found.map((item) => [item.kind, item.line]), [
    ["aws-access-key", 2],
    ["stated-password", 4],
  ]);
});

Deno.test("findSecrets: ordinary prose, code and placeholders hold no secret", () => {
  const clean = [
    "Rotate the leaked Cloudflare token and update the secret in the vault.",
    "the password is stored hashed; my password is expired",
    "password: string, token: process.env.GITHUB_TOKEN, apiKey: config.apiKey",
    "postgres://user:password@localhost:5432/db and https://user:${PASS}@host/ and ftp://a:***@h",
    "const key = computeCacheKey(entry); the primary key is id",
    "GITHUB_TOKEN=$GITHUB_TOKEN and secret: <your-secret-here> and token: xxxxxxxxxxxxxxxxxxxx",
    "see https://example.com/docs/secret-management-guide and the token-bucket-rate-limiter",
    "Run sk-learn's pipeline; AKIA alone is not a key; ghp_short is not a token.",
    "a commit 5d41402abc4b2a76b9719d911017c592 is not a secret without a word naming one",
  ];
  for (const text of clean) assertEquals(findSecrets(text), [], text);
});

Deno.test("findSecrets: a token inside a private key block is that block", () => {
  const text = "-----BEGIN RSA PRIVATE KEY-----\ntoken=AKIAZ7Q3K9W2M5X8R4TB\n" +
    "-----END RSA PRIVATE KEY-----";
  assertEquals(findSecrets(text).map((item) => item.kind), ["private-key"]);
  const unterminated = "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBk";
  assertEquals(findSecrets(unterminated)[0].masked, "-----BEGIN EC PRIVATE KEY-----…");
});

Deno.test("maskSecret: a few characters at each end, never more than a quarter", () => {
  assertEquals(maskSecret("AKIAIOSFODNN7EXAMPLE"), "AKIA…MPLE");
  assertEquals(maskSecret("hunter2secret"), "hun…ret");
  assertEquals(maskSecret("s3cr3t"), "…");
  assertEquals(maskSecret(""), "…");
});

Deno.test("scrubSecrets: every secret replaced by its mask, the rest unchanged", () => {
  const text = "key AKIAZ7Q3K9W2M5X8R4TB; my password is hunter2secret.";
  assertEquals(scrubSecrets(text), "key AKIA…R4TB; my password is hun…ret.");
  assertEquals(scrubSecrets("nothing here"), "nothing here");
  assert(hasSecret(text));
  assert(!hasSecret("nothing here"));
});

Deno.test("secretWords: the words inside secrets, lowercase, and not the words naming them", () => {
  const words = secretWords(
    "my password is hunter2secret and ghp_1234567890abcdefghijklmnopqrstuvwxyzAB",
  );
  assertEquals(
    [...words].sort(),
    ["ghp", "1234567890abcdefghijklmnopqrstuvwxyzab", "hunter2secret"].sort(),
  );
});

Deno.test("looksLikeToken and isHighEntropy: generated strings, not words", () => {
  for (
    const word of [
      "akiaiosfodnn7example",
      "hunter2secret",
      "5d41402abc4b2a76b97",
      "xqzvbnmwkjhgfdsalpoiu",
    ]
  ) {
    assert(looksLikeToken(word), word);
  }
  for (
    const word of [
      "internationalization",
      "counterrevolutionaries",
      "python3",
      "sha256",
      "utf8mb4",
      "cloudflare",
    ]
  ) {
    assert(!looksLikeToken(word), word);
  }
  assert(isHighEntropy("k3Pq9ZtW2mXv7LrN/b5Yc8HdJ4fGs6TaQ1eUo0Wi"));
  assert(!isHighEntropy("process.env.GITHUB_TOKEN"));
  assert(!isHighEntropy("aaaaaaaaaaaaaaaaaaaa1"));
});

Deno.test("findSecrets: hostile input of 1 MiB in each shape is scanned within a second", () => {
  const size = 1 << 20;
  const shapes = [
    "eyJ-",
    "key=",
    "password is ",
    "ab://u:",
    "ghp_",
    "glpat-",
    "xoxb-",
    "sk--",
    "-----BEGIN RSA PRIVATE KEY-----",
    "token ",
    "token=a&",
    `key=${"&".repeat(40)}x=`,
    "ab://u:x-oauth-basic@",
    "ab://4f2a9c81d07e3b65a1c9f0e2d8b7a6c5e4f3d2c1:X-OAUTH-BASIC@",
    ":x-oauth-basic@",
    `ab://${"u".repeat(199)}:x-oauth-basic`,
    `${"a".repeat(21)}://${"b".repeat(201)}:x-oauth-basic@`,
  ];
  for (const shape of shapes) {
    const text = shape.repeat(Math.ceil(size / shape.length));
    const started = performance.now();
    findSecrets(text);
    const ms = performance.now() - started;
    assert(ms < 1_000, `${JSON.stringify(shape)}: ${Math.round(ms)} ms`);
  }
});

/** A prompt, the words of it inside a credential, and words of it that are not. */
interface KeptOutCase {
  prompt: string;
  secret: readonly string[];
  plain: readonly string[];
  /** Texts holding the prompt to test besides it alone and inside a long text. */
  texts?: readonly string[];
}

const FOLDED = "log in with password=Grüße2024x, then with password: my_cat_tom";

const URL_TOKEN = "4f2a9c81d07e3b65a1c9f0e2d8b7a6c5e4f3d2c1";

/** Each {@link inSecretTest} case, by what it shows. */
const KEPT_OUT: Record<string, KeptOutCase> = {
  "whole or around each word, the same answers": {
    prompt: "rotate it: my password is hunter2secret, then AKIAZ7Q3K9W2M5X8R4TB",
    secret: ["hunter2secret", "akiaz7q3k9w2m5x8r4tb"],
    plain: ["rotate", "password"], // the word naming a secret is not one
  },
  "a letters-only value after TOKEN=, PASSWORD=, Bearer or -p is never kept": {
    prompt: "why does TOKEN=swordfishblue fail, PASSWORD: 'correcthorse' too, " +
      "curl -H 'Authorization: Bearer letmeinplease' and mysql -u root -phunterpass shop, " +
      "my password is tangerine",
    secret: ["swordfishblue", "correcthorse", "letmeinplease", "phunterpass", "tangerine"],
    plain: ["curl", "mysql", "root", "shop", "fail", "token", "password", "bearer"],
  },
  "a value after --password, DB_PASS=, curl -u user: or in quotes is never kept": {
    prompt: "psql --password correcthorse fails, DB_PASS=tangerinesunset too, " +
      'curl -u admin:plumwinterfield https://x, and password="violet marmalade harbor" ' +
      "in the config; git push -u origin main and ssh -p 2222 host work",
    secret: ["correcthorse", "tangerinesunset", "plumwinterfield", "violet", "harbor"],
    plain: ["psql", "admin", "config", "origin", "main", "2222", "host", "pass"],
  },
  "words as the tokenizer reads them and tokens as typed, whole or around each word": {
    prompt: FOLDED,
    secret: ["grusse2024x", "my_cat_tom", "cat"], // the folded word; a token as typed, its words
    plain: ["log", "then", "password", "plain words"],
    // İ lowercases to two characters: a long text of them must not move the windows off the value.
    texts: [`${"İ ".repeat(2_000)}${FOLDED} ${"plain words ".repeat(3_000)}`],
  },
  "the token of an x-oauth-basic URL is never kept, whatever it looks like or its case": {
    prompt: "git clone https://sunflowerharbor:x-oauth-basic@github.com/me/kb fails, and " +
      `HTTPS://${URL_TOKEN}:X-OAuth-Basic@github.com/me/kb too`,
    secret: ["sunflowerharbor", URL_TOKEN],
    plain: ["git", "clone", "github", "fails", "too"],
  },
  "a value stated after a secret's name and is, or right after a password's name, is never kept": {
    prompt: "the staging token is abc123xyz, our api key was qwerty12345, the secret is " +
      "hunter22, wifi pass is swordfish9, my pw is tangerine7, ssh with password plumtree42, " +
      "or passphrase 'violet marmalade'",
    secret: ["abc123xyz", "qwerty12345", "hunter22", "swordfish9", "tangerine7", "plumtree42"]
      .concat(["violet", "marmalade"]),
    plain: ["staging", "token", "api", "key", "secret", "wifi", "ssh", "password"],
  },
};

for (const [name, { prompt, secret, plain, texts = [] }] of Object.entries(KEPT_OUT)) {
  Deno.test(`inSecretTest: ${name}`, () => {
    const filler = "plain words ".repeat(3_000);
    for (const text of [prompt, `${filler}${prompt} ${filler}`, ...texts]) {
      const inSecret = inSecretTest(text);
      for (const word of secret) assert(inSecret(word), `${word} in ${text.length} characters`);
      for (const word of plain) assert(!inSecret(word), `${word} in ${text.length} characters`);
    }
  });
}

Deno.test("inSecretTest: a few words of an 8 MiB prompt are checked within a second", () => {
  const text = "eyJaaaaaaaaaa.".repeat((8 << 20) / 14) + " my password is hunter2secret";
  const started = performance.now();
  const inSecret = inSecretTest(text);
  assert(inSecret("hunter2secret"));
  for (const word of ["eyjaaaaaaaaaa", "password", "my"]) inSecret(word);
  const ms = performance.now() - started;
  assert(ms < 1_500, `${Math.round(ms)} ms`);
});

/** Each shape the detector must know: a text holding one, and a near miss that holds none. */
const COVERAGE: { kind: SecretKind; found: string; nearMiss: string }[] = [
  {
    kind: "aws-access-key",
    found: "AWS_ACCESS_KEY_ID=AKIAZ3MSJV4WWNKWW5FG",
    nearMiss: "the id AKIAZ3MSJV4WWNKWW5F (one short) and akiaz3msjv4wwnkww5fg",
  },
  {
    kind: "github-token",
    found: "git clone https://ghp_R8x2Qm4Lk9Vb7Nc3Zt6Yw1Pf5Hs0Jd2Gu8Ea@github.com/me/kb",
    nearMiss: "the ghp_ prefix marks a classic token; ghp_shortone is not one",
  },
  {
    kind: "github-token",
    found: "GH_TOKEN gho_16C7e42F292c6912E7710c838347Ae178B4a in the keychain",
    nearMiss: "an OAuth token starts gho_, e.g. gho_xxxx",
  },
  {
    kind: "github-token",
    found: "github_pat_11AAQWDVA0Ryr3KQhK4y5D_pq9sYbM2LsvJjwW8c7gHfXe1TnZ0aRkUoi3 works",
    nearMiss: "fine-grained tokens start github_pat_ (see github_pat_docs)",
  },
  {
    kind: "gitlab-token",
    found: "PRIVATE-TOKEN: glpat-9xKq3Lm7Vb2Nc8Zt4Yw1",
    nearMiss: "GitLab personal access tokens start glpat- and glpat-short is not one",
  },
  {
    kind: "npm-token",
    found: "//registry.npmjs.org/:_authToken=npm_Xq9Lk2Vb7Nc3Zt6Yw1Pf5Hs0Jd2Gu8EaR4mT",
    nearMiss: "npm_config_registry=https://registry.npmjs.org/ and npm_lifecycle_event",
  },
  {
    kind: "slack-token",
    found: "SLACK_BOT=xoxb-2048-99881234-Gq7Lm3Vb9Nc2Zt5Yw8Pf1Hs4",
    nearMiss: "bot tokens start xoxb- (xoxb-123 here is cut short)",
  },
  {
    kind: "slack-token",
    found: "user token xoxp-1111-2222-3333-4f5e6d7c8b9a",
    nearMiss: "xoxo, the team",
  },
  {
    kind: "slack-webhook",
    found:
      "curl -X POST https://hooks.slack.com/services/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",
    nearMiss: "create one at https://api.slack.com/messaging/webhooks (hooks.slack.com/services/…)",
  },
  {
    kind: "private-key",
    found: "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----",
    nearMiss: "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0\n-----END PUBLIC KEY-----",
  },
  {
    kind: "private-key",
    found: "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA=",
    nearMiss: "ssh-keygen writes the private key to ~/.ssh/id_ed25519 and a BEGIN CERTIFICATE",
  },
  {
    kind: "url-password",
    found: "git remote add origin https://deploy:Zq7-wP3x@git.example.com/team/kb.git",
    nearMiss: "open https://git.example.com/team/kb:8080 or https://git.example.com:8443/kb",
  },
  {
    kind: "url-password",
    found: "redis://default:r3disPa55@cache.internal:6379/0",
    nearMiss: "ssh://git@github.com:22/me/kb.git and redis://user:${REDIS_PASSWORD}@cache:6379",
  },
  {
    kind: "url-token",
    found:
      "git clone https://4f2a9c81d07e3b65a1c9f0e2d8b7a6c5e4f3d2c1:x-oauth-basic@github.com/me/kb",
    nearMiss: "git clone https://<token>:x-oauth-basic@github.com/me/kb (x-oauth-basic is fixed)",
  },
  {
    kind: "keyword-secret",
    found: "export OPENAI_TOKEN=Zq8xLm2Vb7Nc3Zt6Yw1Pf5Hs",
    nearMiss: "export GITHUB_TOKEN=${GITHUB_TOKEN} and a token bucket of 10000000000 requests",
  },
  {
    kind: "keyword-secret",
    found: 'client_secret: "c8f1e2d3b4a5968778695a4b3c2d1e0f"',
    nearMiss: "client_secret: <your-client-secret> and secret: changeme-later-please",
  },
  {
    kind: "keyword-secret",
    found: "mysql --user=app --password=Sup3r!Secret db",
    nearMiss: "mysql --user=app --password-file=/run/secrets/db_password db",
  },
  {
    kind: "stated-password",
    found: "The router's admin password is Tr1cky-Hors3 until Friday.",
    nearMiss: "The router's admin password is required; the password is stored hashed.",
  },
];

Deno.test("findSecrets: every shape is found, and its near miss is not", () => {
  for (const { kind, found, nearMiss } of COVERAGE) {
    assertEquals(findSecrets(found).map((item) => item.kind), [kind], found);
    assertEquals(findSecrets(nearMiss), [], nearMiss);
  }
});

/** tldr-style knowledge: commands, URLs, hashes in prose, words naming secrets, placeholders. */
const ORDINARY_TEXTS = [
  "- Clone a repository:\n`git clone https://github.com/{{user}}/{{repo}}.git`",
  "Fixed in commit 9fceb02d0ae598e95dc970b74767f19372d61af8; see also 4b825dc642cb6eb9a060e54bf8d69288fbee4904.",
  "The token expires after an hour; refresh the token with `gh auth refresh`.",
  "- Read the password from a file:\n`mysql --password-file={{path/to/file}}`",
  "- Log in with a token:\n`echo $TOKEN | docker login --password-stdin ghcr.io`",
  'curl -H "Authorization: Bearer ${TOKEN}" https://api.example.com/v1/items',
  "Set `api_key: <your-token>` in config.yml, then run `tool sync`.",
  "- Specify a password:\n`redis-cli -a {{password}}`",
  "smbpasswd: Add/remove a Samba user or change their password.",
  "The setup step logs `Cache restored from key: node-cache-Linux-x64-npm-...`.",
  "sha256sum: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  empty.txt",
  "Keys are rotated monthly; the key id is in the header. Use --key-file ~/.ssh/deploy_key.",
  "Connect to http://localhost:8080/api and https://example.com/path:with:colons",
  "password:\n`ansible-vault create {{path/to/file}}`",
  "The GPG key is published on keys.openpgp.org; primary key 0x3AA5C34371567BD2 is signed.",
  "JWTs start with eyJ; never paste one here.",
  "SECRET_KEY_BASE is set by the platform; the secret manager holds it.",
];

Deno.test("findSecrets: ordinary tldr-style knowledge holds no secret", () => {
  for (const text of ORDINARY_TEXTS) assertEquals(findSecrets(text), [], text);
});

Deno.test("findSecrets: prose about passwords, key fingerprints and local defaults holds no secret", () => {
  const clean = [
    "The vault password is separate from the login.",
    "On first boot the default password is left blank.",
    "gpg:                using RSA key 4AEE18F83AFDEB23",
    "gpg:                using EDDSA key 5F3A8C2E91D04B7A6C1E0F9D2B8A7C6E5D4F3A2B",
    "Primary key fingerprint: 5DE3 E050 9C47 EA3C F04A  42D3 4AEE 18F8 3AFD EB23",
    "DATABASE_URL=postgres://postgres:postgres@localhost:5432/app",
    "mysql://root:root@127.0.0.1:3306/test and amqp://guest:guest@localhost//",
    "redis://default:changeme@localhost:6379 and postgres://app:example@[::1]/db",
    "the cache key v2-3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c is derived from the lockfile",
    "mysql -u root -p app_db (it asks for the password) and mysql -p$MYSQL_PWD -u ci",
  ];
  for (const text of clean) assertEquals(findSecrets(text), [], text);
});

Deno.test("findSecrets: x-oauth-basic in any case is no password, the token before it is one", () => {
  const cases: [string, [SecretKind, string][]][] = [
    [`HTTPS://${URL_TOKEN}:X-OAUTH-BASIC@github.com/me/kb`, [["url-token", URL_TOKEN]]],
    [`https://${URL_TOKEN}:X-OAuth-Basic@localhost/me/kb`, [["url-token", URL_TOKEN]]],
    // A placeholder stands for the token: nothing to report.
    ["https://<token>:x-oauth-basic@github.com/me/kb", []],
    ["https://${GITHUB_TOKEN}:x-oauth-basic@github.com/me/kb", []],
    ["https://YOUR_TOKEN:x-oauth-basic@github.com/me/kb", []],
    [`https://${"x".repeat(40)}:x-oauth-basic@github.com/me/kb`, []],
    // x-oauth-basic as the user name: the password after it is one, as in any URL.
    ["https://x-oauth-basic:hunter2@github.com/me/kb", [["url-password", "hunter2"]]],
    ["https://x-oauth-basic:x-oauth-basic@github.com/me/kb", []],
    [`https://${URL_TOKEN}:x-oauth-basic2@github.com`, [["url-password", "x-oauth-basic2"]]],
  ];
  for (const [text, expected] of cases) {
    const found = findSecrets(text).map((item) => [item.kind, text.slice(item.start, item.end)]);
    assertEquals(found, expected, text);
  }
});

Deno.test("findSecrets: a SendGrid key, a password attached to mysql -p, a real one in a local URL", () => {
  const sendgrid = "SG." + "aB3dE5fG7hI9jK1lM3nO5p" + "." +
    "qR7sT9uV1wX3yZ5aB7cD9eF1gH3iJ5kL7mN9oP1qR3s";
  const cases: [string, string, SecretKind][] = [
    [`SENDGRID=${sendgrid}`, sendgrid, "api-key"],
    ["mysql -u admin -pS3cretPw orders", "S3cretPw", "command-password"],
    ["mysqldump -uroot -p'hunterpass' shop > shop.sql", "hunterpass", "command-password"],
    ["postgres://app:Xk9-pQ2w@localhost/app", "Xk9-pQ2w", "url-password"],
    ["postgres://postgres:postgres@db.internal.example.net/app", "postgres", "url-password"],
    [
      "api signing secret key 9f8e7d6c5b4a39281706f5e4d3c2b1a0",
      "9f8e7d6c5b4a39281706f5e4d3c2b1a0",
      "keyword-secret",
    ],
  ];
  for (const [text, secret, kind] of cases) {
    const found = findSecrets(text);
    assertEquals(
      found.map((item) => [item.kind, text.slice(item.start, item.end)]),
      [[kind, secret]],
      text,
    );
  }
});

Deno.test("findSecrets: notes of public collections that hold no secret are not masked", () => {
  const clean = [
    // A secret's name in prose, after `secrets:`: the name reads PASSWORD, no value does.
    "It sets four values saved as secrets: `CSC_KEY_PASSWORD`, `CSC_LINK`, `APPLEID`.",
    // Where a credential is kept is not the credential.
    'credentials_path = "cloud-vision-ocr-382418-fee63d63124b.json"',
    "key_file: deploy-2024-prod-Xk9pQ2wL.pem and tokenFile=ci-token-2024-11-05-a9f3.txt",
    // An S3 object's address after its key's name (a Docusaurus notes site's AWS CLI notes).
    "S3_OBJECT_KEY=s3://myuniquebucket/images/image.png",
    "PASSWORD_STORE=s3://team-vault-2024/prod/store.gpg",
    // A web push server's public key, given to every browser (the same site's PWA notes).
    'const publicKey = "BEKleK9DGqPES0ONZTL-2WcHe50Gy22OTf8rEHbPv-JZ7i0tg_sLZStvcb9_PJHi6sGpK8HVXNy4"',
    "VAPID_PUBLIC_KEY=BP0xZjc331Gv72TnbzRWbmZ31ai1W-4xdqI8ZSb32YGgmUVYgMaVx6FHppvQ4GDg",
    "the public key: BP0xZjc331Gv72TnbzRWbmZ31ai1W4xdqI8ZSb32",
    // A WebSocket handshake's nonce, RFC 6455's sample (the same site's notes on fetching data).
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    // An S3 object's key, a path; a key file's name, then the host to log in to.
    "params: { Bucket: 'my-bucket', Key: 'videos/large-2024.mp4', Body: stream }",
    "ssh -i /path/key-pair-name.pem instance-user-name@2001:db8::1234:5678:1.2.3.4",
    // A private key block that shows only its shape (rwxrob/zet's note on an SSH library).
    "var ukey = `\n-----BEGIN OPENSSH PRIVATE KEY-----\n...\n-----END OPENSSH PRIVATE KEY-----\n`",
    "-----BEGIN RSA PRIVATE KEY-----\n<your private key here>\n-----END RSA PRIVATE KEY-----",
    "The file starts with `-----BEGIN OPENSSH PRIVATE KEY-----` and ends with its END line.",
    // Capitalised words and prose in other scripts after a word such as auth, key or token.
    "- Wähle neben 2-Faktor-Authentifizierung **Wiederherstellungscodes aktualisieren**.",
    "- 「hotkey」よりも「keyboard shortcut」を優先する。ただし、特定の機能を参照する場合はHotkeyを使用する。",
    "Ollama 的上下文窗口默认为 2048 个 token。这是消息和响应的最大 token 数。当剪藏较长的网页时，你很容易超过此限制。Ollama 会静默失败并返回不相关的结果。",
    // Words naming what goes there.
    "postgres://dashboardrole:RANDOM_PASSWORD@my-app-postgresql.internal/appdatabase",
    'docker run --env DATABASE_URL="postgres://docker:docker-password@host.docker.internal/app"',
    "CSC_KEY_PASSWORD=key-password and Authorization: Bearer MY-PERSONAL-ACCESS-TOKEN",
    // Names of words run together after a word such as auth or tokens (an n8n node's settings, a
    // list of fonts).
    '- `authentication: "predefinedCredentialType"`',
    "- Tokens Filson/Switzer/JetBrains + paleta --brand/--brand-2/",
    "const request = new XMLHttpRequestUploadEventTarget(); // token XMLHttpRequestUploadTarget",
    // A foreign key's name, ids and all, in TypeORM's documentation of @JoinTable.
    'foreignKeyConstraintName: "fk_question_categories_questionId",',
    // A Ruby constant path after HttpAuthentication; a placeholder and prose in Japanese after a
    // password's name; the fields of /etc/group and /etc/passwd.
    "[`ActionController::HttpAuthentication::Basic::ControllerMethods.http_basic_authenticate_with`]",
    "MYAPP_DATABASE_PASSWORD=任意のパスワード",
    "-u BASIC-USERNAME:BASIC-PASSWORD : Basic認証のユーザー名とパスワード",
    "group_name:password:GID:user_list",
    "account:password:UID:GID:GECOS:directory:shell",
    // A CI cache's key, as GitHub Actions logs it (dendronhq/dendron-site): words and a digest.
    "`Cache not found for input keys: Linux-dendronv2-99cb51177fdf291e959222d9bb8562af297a2b2733d7ab2441e4c17504a7cfbd-3`",
    "restore-keys: Linux-nextjs-61b2b3e4dca74cdd33dbcc1127ab33c8",
    // The ids AWS gives a role, a user and a CloudFront public key: names, not credentials.
    '"RoleId": "AROAJ52OTH4H7LEXAMPLE", "UserId": "AIDACKCEVSQ6C2EXAMPLE"',
    "Key pair id for signed URLs: APKAEIBAERJR2EXAMPLE",
    // The credentials AWS's documentation shows, as a note on the AWS CLI copies them: every one
    // holds EXAMPLE, and none unlocks anything.
    "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    'export AWS_ACCESS_KEY_ID=AKIAI44QH8DHBEXAMPLE AWS_SECRET_ACCESS_KEY="je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"',
    '"AccessKeyId": "ASIAJ52OTH4H7LEXAMPLE", "SecretAccessKey": "9drTJvcXLB89EXAMPLELB8923FB892xMFI"',
    "s3://AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI%2FK7MDENG%2FbPxRfiCYEXAMPLEKEY@bucket/key",
    // A CloudFront signed URL, as notes paste them (a Logseq graph's, a Zettelkasten's): the key
    // pair's id names which public key checks the signature; a key's id beside its key likewise.
    "https://d1x.cloudfront.net/a.pdf?Expires=1754845122&Signature=Lm0k~xAN&Key-Pair-Id=APKAJLOHF5GGSLRBV4ZA",
    '"private_key_id": "8d3c1e0b9a7f6e5d4c3b2a19f8e7d6c5b4a39281", keyId: 7f3a9c2e5b8d1f4a6c9e2b5d8f1a4c7e',
    // A URL's next parameter ends a value: Hydra's ^PASS^ placeholder, a player's share link
    // (a Zettelkasten's Hydra note, a weekly's SoundCloud embed).
    'hydra -P passwords.txt host http-post-form "/?wp-login.php:log=^USER&pwd=^PASS^&wp-submit=Log+In:F=incorrect"',
    '<iframe src="https://w.soundcloud.com/player/?url=https://api.soundcloud.com/tracks/802871497?secret_token=s-5bu1A48An4g&amp;amp;auto_play=false"></iframe>',
    // Key bindings, as a terminal's or an editor's config writes them (a Logseq graph's Ghostty
    // note): the keys pressed and the action, no secret.
    "- `keybind = super+shift+period=increase_font_size:2`",
    '"keybindings": "ctrl+shift+alt+k=workbench.action.terminal2", keymap: cmd+k=open_file_v2',
  ];
  for (const text of clean) assertEquals(findSecrets(text), [], text);
  // The same shapes with a secret in them are still found.
  const secrets: [string, string][] = [
    ["secrets: `aB3dE5fG7hI9jK1lM3nO`", "aB3dE5fG7hI9jK1lM3nO"],
    ['"AccessKeyId": "ASIAJ52OTH4H7LQ3TRW5X"', "ASIAJ52OTH4H7LQ3TRW5X"],
    // A key of AWS's shape is found, whatever other word it holds.
    ["aws_access_key_id = AKIASAMPLE7Q3K9W2M5X", "AKIASAMPLE7Q3K9W2M5X"],
    ["CSC_KEY_PASSWORD=Tr0ub4dor&3", "Tr0ub4dor&3"],
    // A password that holds EXAMPLE is not one of AWS's documented keys.
    ["CSC_KEY_PASSWORD=Tr0ubEXAMPLE&3", "Tr0ubEXAMPLE&3"],
    // Only the value is masked, not the URL's parameters after it.
    ["https://api.example.com/x?token=Xk9pQ2wLr7Tz4Vb8Nc3Z&user=me", "Xk9pQ2wLr7Tz4Vb8Nc3Z"],
    ["api_key=Xk9pQ2wLr7Tz4Vb8Nc3Z&amp;v=2", "Xk9pQ2wLr7Tz4Vb8Nc3Z"],
    ["VAULT_SECRET_ID=Xk9pQ2wLr7Tz4Vb8Nc3Zt6Yw1", "Xk9pQ2wLr7Tz4Vb8Nc3Zt6Yw1"],
    ["key_pair_secret: Xk9pQ2wLr7Tz4Vb8Nc3Zt6Yw1", "Xk9pQ2wLr7Tz4Vb8Nc3Zt6Yw1"],
    ["S3_SECRET_KEY=s3cr3tQ9xLw2Vb7Nc3Zt6Yw1Pf5H", "s3cr3tQ9xLw2Vb7Nc3Zt6Yw1Pf5H"],
    ["VAPID_PRIVATE_KEY=Xk9pQ2wLr7Tz4Vb8Nc3Zt6Yw1Pf5Hs0", "Xk9pQ2wLr7Tz4Vb8Nc3Zt6Yw1Pf5Hs0"],
    ["public_key_password: Xk9pQ2wLr7Tz4Vb8Nc3Z", "Xk9pQ2wLr7Tz4Vb8Nc3Z"],
    ["Key: 'Xk9pQ2wLr7T/z4Vb8Nc3Zt6Yw1Pf5H'", "Xk9pQ2wLr7T/z4Vb8Nc3Zt6Yw1Pf5H"],
    ["token.pem: Xk9pQ2wLr7Tz4Vb8Nc3Z", "Xk9pQ2wLr7Tz4Vb8Nc3Z"],
    [
      '"key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n-----END PRIVATE KEY-----\\n"',
      "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n-----END PRIVATE KEY-----",
    ],
    [
      'credentials = "cloud-vision-ocr-382418-fee63d63124b"',
      "cloud-vision-ocr-382418-fee63d63124b",
    ],
    ["AUTH_TOKEN: DLXBMPbtamCaSTUyVhRwOFJFDsSTHqEA", "DLXBMPbtamCaSTUyVhRwOFJFDsSTHqEA"],
    [
      "postgres://app:correct-horse-battery-staple@db.example.com/app",
      "correct-horse-battery-staple",
    ],
    ["DB_PASSWORD=my-password-2024", "my-password-2024"],
    ["DB_PASSWORD=contraseña2024", "contraseña2024"],
    ["password: Admin:Secret9", "Admin:Secret9"],
    // A name that starts with key and names a secret's store, not a key press.
    ["keystore_password=Tr0ub4dor&3", "Tr0ub4dor&3"],
    ["key = super+shift+Xk9pQ2wLr7Tz4Vb8", "super+shift+Xk9pQ2wLr7Tz4Vb8"],
    // The same shape after a token's or an API key's name, or with a random part, is a secret.
    [
      "token: Linux-deploy-99cb51177fdf291e959222d9bb8562af297a2b27",
      "Linux-deploy-99cb51177fdf291e959222d9bb8562af297a2b27",
    ],
    [
      "api_key: prod-live-99cb51177fdf291e959222d9bb8562af",
      "prod-live-99cb51177fdf291e959222d9bb8562af",
    ],
    [
      "keys: Linux-node-aB3dE5fG7hI9jK1lM3nOpQ5rS7tU9vW1",
      "Linux-node-aB3dE5fG7hI9jK1lM3nOpQ5rS7tU9vW1",
    ],
  ];
  for (const [text, secret] of secrets) {
    assertEquals(findSecrets(text).map((item) => text.slice(item.start, item.end)), [secret], text);
  }
});
