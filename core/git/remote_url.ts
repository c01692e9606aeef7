/**
 * Telling whether two remote URLs name the same repository, as `git-kb init` asks before it
 * clones a remote a configured knowledge base is a clone of already. Pure: no I/O (a local path
 * is compared as given; the I/O layer resolves links first).
 *
 * @module
 */

/** Whether `source` names a remote repository (a URL, or scp-like `user@host:path`). */
export function isRemoteUrl(source: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(source) || /^[^/\\\s]+@[^:\s]+:/.test(source);
}

/**
 * What identifies the repository `url` names, whatever the transport or user it is reached
 * with: `host/path` for a URL or an scp-like address (host in lowercase, without the user, a
 * password or a trailing `.git` or `/`), the path for a `file://` URL or a local path (its
 * trailing `/` and `.git` dropped too, as git finds `repo.git` for `repo`).
 *
 * @example
 * ```ts
 * remoteKey("git@GitHub.com:me/kb.git"); // "github.com/me/kb"
 * remoteKey("https://me@github.com/me/kb/"); // "github.com/me/kb"
 * remoteKey("/srv/git/kb.git"); // "/srv/git/kb"
 * ```
 */
export function remoteKey(url: string): string {
  const trimmed = url.trim();
  const bare = (path: string) => path.replace(/\/+$/, "").replace(/\.git$/, "") || "/";
  const file = /^file:\/\/(?:localhost)?(\/.*)$/i.exec(trimmed);
  if (file) return bare(file[1]);
  const address = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?([^/]+)(\/.*)?$/i.exec(trimmed) ??
    /^(?:[^@/\\\s]+@)?([^:/\s]+):(?!\/\/)(.*)$/.exec(isRemoteUrl(trimmed) ? trimmed : "");
  if (!address) return bare(trimmed);
  const path = bare((address[2] ?? "").replace(/^\/+/, "").replace(/^~\//, ""));
  return `${address[1].toLowerCase()}/${path.replace(/^\/$/, "")}`;
}
