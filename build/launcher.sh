#!/bin/sh
# @build notice
# Runs a compiled binary when one sits beside this script, else `deno run` on git-kb.js (or a
# hot hook's own bundle) with the least-privilege flags of the command or hook asked for.
# Forks as little as it can: a hook pays for every process started here. Evaluates nothing it is
# given: every value from the environment reaches deno as one word of its argument list.
# Made from build/launcher.sh, where build/plugin.ts fills in each "# @build <name>" line from
# app/permissions.ts and app/registry.ts; shellcheck checks both (tests/launcher_test.ts).
self=$0
while [ -L "$self" ]; do
  link=$(readlink "$self")
  case "$link" in
    /*) self=$link ;;
    *) self=${self%/*}/$link ;;
  esac
done
case "$self" in
  */*) here=${self%/*} ;;
  *) here=. ;;
esac
case "$here" in
  /*) ;;
  *) here=$(CDPATH='' cd -- "$here" && pwd) ;;
esac
# The command that reaches this launcher, as printed fetch commands spell it: one sh word, quoted
# as core/shell/quote.ts quotes (inside '…', each ' written '\''; a newline stays inside the
# quotes), so that a pasted line runs this launcher and nothing else, whatever its path holds.
if [ -z "${KB_CLI:-}" ]; then
  KB_CLI=$here/git-kb
  case "$KB_CLI" in
    *[!A-Za-z0-9_./:=@%+,-]*)
      # q is a quote to write, not one that quotes (SC2089, and SC2090 at the export below).
      # shellcheck disable=SC2089
      q="'"
      rest=$KB_CLI
      KB_CLI=
      while :; do
        case "$rest" in
          *$q*) ;;
          *) break ;;
        esac
        KB_CLI=$KB_CLI${rest%%"$q"*}$q\\$q$q
        rest=${rest#*"$q"}
      done
      KB_CLI=$q$KB_CLI$rest$q ;;
  esac
fi
# shellcheck disable=SC2090
export KB_CLI
# The command word, as app/main.ts finds it: past the options it reads before the command
# (--kb <dir>, --kb=<dir>, --help, --version, and the unknown ones it reports). A hook is only
# ever `hook <name>` from the first word on (app/launch.ts). A loop of builtins: no fork.
first=${1:-}
case "$first" in
  -?*)
    first=
    skip=
    for word in "$@"; do
      if [ -n "$skip" ]; then
        skip=
        continue
      fi
      case "$word" in
        --kb) skip=1 ;;
        -?*) ;;
        hook) break ;;
        *)
          first=$word
          break ;;
      esac
    done ;;
esac

# In a current folder that was deleted nothing starts (Deno stops on it with exit 1), and a hook
# fails open: silent, exit 0. The shell then leaves PWD empty, or naming the folder that is gone.
[ "$first" = hook ] && [ ! -d "${PWD:-}" ] && exit 0

for binary in "$here"/git-kb-*; do
  [ -x "$binary" ] || continue
  target=
  case "$(uname -s) $(uname -m)" in
    # @build compile-targets
    *) break ;;
  esac
  [ -x "$here/git-kb-$target" ] && exec "$here/git-kb-$target" "$@"
  break
done

# Deno on PATH, looked for in its absolute folders only and run by that path: an empty or relative
# entry (a PATH that ends in `:`) names the current folder, the project an agent works in, whose
# `deno` a fetch the fetch hook allows would otherwise run. A loop of builtins: no fork.
deno=
set -f
saved_ifs=$IFS
IFS=:
for folder in ${PATH:-}; do
  case "$folder" in
    /*)
      if [ -f "$folder/deno" ] && [ -x "$folder/deno" ]; then
        deno=$folder/deno
        break
      fi ;;
  esac
done
IFS=$saved_ifs
set +f
# The user-folder Deno is the one the checkout's ./deno installs from npm (no root needed).
case "${XDG_DATA_HOME:-}" in
  /*) data=${XDG_DATA_HOME%/} ;;
  *) data=${HOME:-/nonexistent}/.local/share ;;
esac
for candidate in "${DENO_INSTALL:-$HOME/.deno}/bin/deno" "$HOME/.deno/bin/deno" "$data/git-kb/deno/node_modules/.bin/deno"; do
  [ -n "$deno" ] && break
  # A relative DENO_INSTALL or HOME would name a folder of the project too.
  case "$candidate" in
    /*) [ -x "$candidate" ] && deno=$candidate ;;
  esac
done
if [ -z "$deno" ]; then
  # Where the user-folder Deno is looked for, as a shell word: ~ unless XDG_DATA_HOME moves it.
  # shellcheck disable=SC2088 # the ~ is printed, for the user's shell to expand
  prefix='~/.local/share/git-kb/deno'
  case "${XDG_DATA_HOME:-}" in
    /*) prefix="'$(printf '%s' "$data/git-kb/deno" | sed "s/'/'\\\\''/g")'" ;;
  esac
  if [ -z "${HOME:-}" ] && [ -z "${XDG_DATA_HOME:-}" ]; then
    # Without HOME there is no user folder to look in: that, not Deno, is what to fix first.
    echo "git-kb: HOME is not set, so the Deno in your home folder (~/.local/share/git-kb/deno, ~/.deno) cannot be found: set HOME to your home folder, then retry." >&2
    [ "$first" = hook ] && exit 0
    exit 1
  fi
  # The command ends the line, unquoted, so that it can be pasted as it is.
  echo "git-kb: Deno 2 is needed and was not found (see https://deno.com); install it without root, then retry: npm install --prefix $prefix deno@2.9.6" >&2
  [ "$first" = hook ] && exit 0
  exit 1
fi

# Deno splits its permission lists on commas, with no escape: a path holding one cannot be
# granted. A hook then stays silent (it fails open); a command says why, in one line.
refuse() {
  [ "$first" = hook ] && exit 0
  echo "git-kb: $1 has a comma, which Deno's permission flags cannot hold (they split on commas): $2, then retry." >&2
  exit 1
}

npmrc=
# Deno reads $HOME/.npmrc before it runs anything: where HOME is not a folder, or .npmrc is not a
# file it may read, it stops with exit 1 (and waits forever on a FIFO). A hook then stays silent
# (it fails open); a command says why, in one line.
if [ -n "${HOME:-}" ]; then
  if [ -e "$HOME" ] && [ ! -d "$HOME" ]; then
    [ "$first" = hook ] && exit 0
    echo "git-kb: HOME ($HOME) is not a folder, and Deno cannot start without one: set HOME to your home folder, then retry." >&2
    exit 1
  fi
  npmrc=${HOME%/}/.npmrc
  if [ -e "$npmrc" ] && { [ ! -f "$npmrc" ] || [ ! -r "$npmrc" ]; }; then
    [ "$first" = hook ] && exit 0
    echo "git-kb: $npmrc is not a file you may read, and Deno reads it before it starts: make it one, or move it away, then retry." >&2
    exit 1
  fi
fi

# The cache root, as cacheRootFor in io/paths.ts works it out: the one folder the read-only
# profiles may write. Only without HOME does it cost a process (id -u).
case "${XDG_CACHE_HOME:-}" in
  /*) cache=${XDG_CACHE_HOME%/}/git-kb ;;
  *)
    if [ -n "${HOME:-}" ]; then
      cache=${HOME%/}/.cache/git-kb
    else
      cache=${TMPDIR:-${TEMP:-${TMP:-/tmp}}}
      cache=${cache%/}/git-kb-$(id -u)
    fi ;;
esac
case "$cache" in
  *,*) refuse "the cache folder $cache" "set XDG_CACHE_HOME to a folder whose path has none" ;;
esac

bundle=git-kb.js
v8=
case "$first" in
  hook)
    # @build hook-v8-flags
    case "${2:-}" in
      # @build hook-profiles
      *) profile='read' ;;
    esac ;;
  # @build command-profiles
  *) profile='read' ;;
esac
case "$first" in
  # @build read-only-profiles
esac
judge=
editor=
case "$profile" in
  judge|capture)
    judge=${KB_PROSE_LINT_CLAUDE:-claude}
    case "$judge" in
      *,*) refuse "KB_PROSE_LINT_CLAUDE ($judge)" "name the judge binary by a path without one" ;;
    esac ;;
  handoff|selftest)
    # The capture hook starts its worker, and selftest the CLI and hooks it checks, with this
    # same Deno (io/process.ts startDetached, app/self_cli.ts).
    case "$deno" in
      *,*) refuse "the Deno binary $deno" "install Deno where its path has none" ;;
    esac
    KB_DENO=$deno
    export KB_DENO ;;
esac
case "$first" in
  add|edit|review)
    # The editor's program: the first word of $VISUAL or $EDITOR as sh reads it, quotes and
    # backslashes removed and nothing evaluated, as io/editor.ts reads it (core/shell/editor.ts)
    # to run it. A value io/editor.ts refuses (a $, a ;) may give a word that names no program,
    # granted and never run. A loop of builtins: no fork. Each step copies what is left, so a
    # value longer than io/editor.ts reads (MAX_EDITOR_BYTES, which it refuses) is not read, and
    # a run of plain characters is taken whole: a long value cannot hold the launcher up.
    # $VISUAL unless it is blank, then $EDITOR.
    for rest in "${VISUAL:-}" "${EDITOR:-}"; do
      case "$rest" in
        *[![:space:]]*) ;;
        *) continue ;;
      esac
      [ "${#rest}" -gt 4096 ] && rest=
      while :; do
        case "$rest" in
          [[:space:]]*) rest=${rest#?} ;;
          *) break ;;
        esac
      done
      break
    done
    editor=
    nl='
'
    while [ -n "$rest" ]; do
      case "$rest" in
        [[:space:]]*) break ;;
        \\"$nl"*) rest=${rest#??} ;;
        \\*)
          rest=${rest#?}
          editor=$editor${rest%%"${rest#?}"}
          rest=${rest#?} ;;
        \'*)
          rest=${rest#?}
          editor=$editor${rest%%\'*}
          case "$rest" in
            *\'*) rest=${rest#*\'} ;;
            *) rest= ;;
          esac ;;
        \"*)
          rest=${rest#?}
          while [ -n "$rest" ]; do
            case "$rest" in
              \"*) break ;;
              \\"$nl"*) rest=${rest#??} ;;
              \\[\\\"\$\`]*)
                rest=${rest#?}
                editor=$editor${rest%%"${rest#?}"}
                rest=${rest#?} ;;
              \\*)
                editor=$editor\\
                rest=${rest#?} ;;
              *)
                plain=${rest%%[\\\"]*}
                editor=$editor$plain
                rest=${rest#"$plain"} ;;
            esac
          done
          rest=${rest#?} ;;
        *)
          plain=${rest%%[[:space:]\\\'\"]*}
          editor=$editor$plain
          rest=${rest#"$plain"} ;;
      esac
    done
    case "$editor" in
      *,*) refuse "the editor $editor" "set VISUAL or EDITOR to a program whose path has none" ;;
    esac
    editor=${editor:+,$editor} ;;
esac
# @build env-flag
set -- "$here/$bundle" "$@"
case "$profile" in
  # @build profile-flags
esac
# Deno also stops with exit 1, before any code runs, on a ~/.npmrc whose contents it refuses (a
# registry that is no URL, bytes that are not UTF-8), and no flag or variable makes it skip the
# file. A hook must still fail open, so with a ~/.npmrc a hook in the foreground runs as a child,
# not in this process's place: its stdout passes, its stderr (where a hook writes nothing) goes,
# and an exit 1, which a hook that ran never gives (app/launch.ts), is Deno's failure to start,
# made a silent exit 0. A background hook keeps this process, as a hook's parent must reach Deno
# (app/plugin_hooks.ts): a start of Deno on nothing tells first whether it can start, once a
# session. A command is left to Deno, whose error names the file: checking first would cost every
# command a start of Deno wherever a ~/.npmrc exists.
if [ "$first" = hook ] && [ -f "${npmrc:-}" ]; then
  background=
  case "$first ${2:-}" in
    # @build background-hooks
  esac
  if [ -z "$background" ]; then
    "$deno" run --quiet --no-prompt --no-config ${v8:+"$v8"} "$@" 2>/dev/null
    status=$?
    [ "$status" -eq 1 ] && exit 0
    exit "$status"
  fi
  "$deno" run --quiet --no-prompt --no-config 'data:text/javascript,' >/dev/null 2>&1 || exit 0
fi
# --no-config: the user's own deno.json (hooks run in their project) must not apply here;
# --quiet: Deno's own notes (an --allow-run program not on PATH) are not ours to print;
# $v8: the hooks' V8 settings (HOOK_V8_FLAGS in app/permissions.ts), one word or none.
exec "$deno" run --quiet --no-prompt --no-config ${v8:+"$v8"} "$@"
