@echo off
rem git-kb launcher, written by `deno task build` from app/permissions.ts: do not edit.
setlocal
set "here=%~dp0"
if not defined KB_CLI set "KB_CLI="%here%git-kb.cmd""
if exist "%here%git-kb-x86_64-pc-windows-msvc.exe" (
  "%here%git-kb-x86_64-pc-windows-msvc.exe" %*
  exit /b %errorlevel%
)
where deno >nul 2>nul
if errorlevel 1 (
  echo git-kb: Deno 2 is needed and was not found: install it with "npm install -g deno" ^(or see https://deno.com^), then retry. 1>&2
  if /i "%~1"=="hook" exit /b 0
  exit /b 1
)
set "judge=%KB_PROSE_LINT_CLAUDE%"
if not defined judge set "judge=claude"
set "cache=%TEMP%\git-kb"
if defined HOME set "cache=%HOME%\.cache\git-kb"
if defined XDG_CACHE_HOME set "cache=%XDG_CACHE_HOME%\git-kb"
set "profile=read"
set "bundle=git-kb.js"
set "v8="
call :command_word %*
if /i "%~1"=="hook" set "v8=--v8-flags=--min-semi-space-size=4"
if /i "%first%"=="init" set "profile=save"
if /i "%first%"=="add" set "profile=save"
if /i "%first%"=="edit" set "profile=save"
if /i "%first%"=="promote" set "profile=save"
if /i "%first%"=="rm" set "profile=save"
if /i "%first%"=="review" set "profile=review"
if /i "%first%"=="sync" set "profile=save"
if /i "%first%"=="import" set "profile=save"
if /i "%first%"=="export" set "profile=export"
if /i "%first%"=="kernel" set "profile=save"
if /i "%first%"=="search" set "profile=read"
if /i "%first%"=="get" set "profile=check"
if /i "%first%"=="index" set "profile=read"
if /i "%first%"=="context" set "profile=read"
if /i "%first%"=="stats" set "profile=read"
if /i "%first%"=="eval" set "profile=read"
if /i "%first%"=="doctor" set "profile=save"
if /i "%first%"=="selftest" set "profile=selftest"
if /i "%first%"=="mcp" set "profile=save"
if /i "%first%"=="setup" set "profile=setup"
if /i "%first%"=="mcp" for %%a in (%*) do if /i "%%~a"=="--read-only" set "profile=read"
if /i "%~1"=="hook" if /i "%~2"=="prompt" (set "profile=read" & set "bundle=hooks\prompt\prompt.js")
if /i "%~1"=="hook" if /i "%~2"=="judge" (set "profile=judge")
if /i "%~1"=="hook" if /i "%~2"=="search" (set "profile=read" & set "bundle=hooks\search\search_augment.js")
if /i "%~1"=="hook" if /i "%~2"=="fetch" (set "profile=decide" & set "bundle=hooks\fetch\fetch_allow.js")
if /i "%~1"=="hook" if /i "%~2"=="subagent" (set "profile=read")
if /i "%~1"=="hook" if /i "%~2"=="receipts" (set "profile=read")
if /i "%~1"=="hook" if /i "%~2"=="session" (set "profile=pull")
if /i "%~1"=="hook" if /i "%~2"=="watch" (set "profile=handoff")
if /i "%~1"=="hook" if /i "%~2"=="compact" (set "profile=read")
if /i "%~1"=="hook" if /i "%~2"=="capture" (set "profile=handoff")
if /i "%~1"=="hook" if /i "%~2"=="capture-worker" (set "profile=capture")
if "%profile%"=="read" set "flags=--allow-read --allow-write=%cache% --allow-sys=uid --allow-env=KB_DIR,CLAUDE_PLUGIN_DATA,XDG_CONFIG_HOME,XDG_CACHE_HOME,XDG_DATA_HOME,HOME,USERPROFILE,TMPDIR,TEMP,TMP,NO_COLOR,VISUAL,EDITOR,KB_HOOK_DEBUG,KB_HOOK_THRESHOLD,KB_HOOK_MAX_ENTRIES,KB_TEST_WATCH_PERIOD_MS,KB_TEST_NETWORK_TIMEOUT_MS,KB_CLI,CLAUDE_PLUGIN_ROOT,KB_PROSE_LINT,KB_PROSE_LINT_MODEL,KB_PROSE_LINT_TIMEOUT_MS,KB_PROSE_LINT_CLAUDE,GIT_KB_JUDGE,GIT_KB_CAPTURE,GIT_KB_CAPTURE_MODEL,GIT_KB_CAPTURE_TIMEOUT_MS,GIT_KB_CAPTURING,KB_DENO"
if "%profile%"=="decide" set "flags=--allow-read --allow-env=KB_DIR,CLAUDE_PLUGIN_DATA,XDG_CONFIG_HOME,XDG_CACHE_HOME,XDG_DATA_HOME,HOME,USERPROFILE,TMPDIR,TEMP,TMP,NO_COLOR,VISUAL,EDITOR,KB_HOOK_DEBUG,KB_HOOK_THRESHOLD,KB_HOOK_MAX_ENTRIES,KB_TEST_WATCH_PERIOD_MS,KB_TEST_NETWORK_TIMEOUT_MS,KB_CLI,CLAUDE_PLUGIN_ROOT,KB_PROSE_LINT,KB_PROSE_LINT_MODEL,KB_PROSE_LINT_TIMEOUT_MS,KB_PROSE_LINT_CLAUDE,GIT_KB_JUDGE,GIT_KB_CAPTURE,GIT_KB_CAPTURE_MODEL,GIT_KB_CAPTURE_TIMEOUT_MS,GIT_KB_CAPTURING,KB_DENO"
if "%profile%"=="check" set "flags=--allow-read --allow-write=%cache% --allow-sys=uid --allow-env=KB_DIR,CLAUDE_PLUGIN_DATA,XDG_CONFIG_HOME,XDG_CACHE_HOME,XDG_DATA_HOME,HOME,USERPROFILE,TMPDIR,TEMP,TMP,NO_COLOR,VISUAL,EDITOR,KB_HOOK_DEBUG,KB_HOOK_THRESHOLD,KB_HOOK_MAX_ENTRIES,KB_TEST_WATCH_PERIOD_MS,KB_TEST_NETWORK_TIMEOUT_MS,KB_CLI,CLAUDE_PLUGIN_ROOT,KB_PROSE_LINT,KB_PROSE_LINT_MODEL,KB_PROSE_LINT_TIMEOUT_MS,KB_PROSE_LINT_CLAUDE,GIT_KB_JUDGE,GIT_KB_CAPTURE,GIT_KB_CAPTURE_MODEL,GIT_KB_CAPTURE_TIMEOUT_MS,GIT_KB_CAPTURING,KB_DENO --allow-run=git"
if "%profile%"=="save" set "flags=--allow-read --allow-write --allow-sys=uid --allow-env=KB_DIR,CLAUDE_PLUGIN_DATA,XDG_CONFIG_HOME,XDG_CACHE_HOME,XDG_DATA_HOME,HOME,USERPROFILE,TMPDIR,TEMP,TMP,NO_COLOR,VISUAL,EDITOR,KB_HOOK_DEBUG,KB_HOOK_THRESHOLD,KB_HOOK_MAX_ENTRIES,KB_TEST_WATCH_PERIOD_MS,KB_TEST_NETWORK_TIMEOUT_MS,KB_CLI,CLAUDE_PLUGIN_ROOT,KB_PROSE_LINT,KB_PROSE_LINT_MODEL,KB_PROSE_LINT_TIMEOUT_MS,KB_PROSE_LINT_CLAUDE,GIT_KB_JUDGE,GIT_KB_CAPTURE,GIT_KB_CAPTURE_MODEL,GIT_KB_CAPTURE_TIMEOUT_MS,GIT_KB_CAPTURING,KB_DENO --allow-run=git,kill"
if "%profile%"=="review" set "flags=--allow-read --allow-write --allow-sys=uid --allow-env=KB_DIR,CLAUDE_PLUGIN_DATA,XDG_CONFIG_HOME,XDG_CACHE_HOME,XDG_DATA_HOME,HOME,USERPROFILE,TMPDIR,TEMP,TMP,NO_COLOR,VISUAL,EDITOR,KB_HOOK_DEBUG,KB_HOOK_THRESHOLD,KB_HOOK_MAX_ENTRIES,KB_TEST_WATCH_PERIOD_MS,KB_TEST_NETWORK_TIMEOUT_MS,KB_CLI,CLAUDE_PLUGIN_ROOT,KB_PROSE_LINT,KB_PROSE_LINT_MODEL,KB_PROSE_LINT_TIMEOUT_MS,KB_PROSE_LINT_CLAUDE,GIT_KB_JUDGE,GIT_KB_CAPTURE,GIT_KB_CAPTURE_MODEL,GIT_KB_CAPTURE_TIMEOUT_MS,GIT_KB_CAPTURING,KB_DENO --allow-run=git,kill"
if "%profile%"=="selftest" set "flags=--allow-read --allow-write=%cache% --allow-sys=uid --allow-env=KB_DIR,CLAUDE_PLUGIN_DATA,XDG_CONFIG_HOME,XDG_CACHE_HOME,XDG_DATA_HOME,HOME,USERPROFILE,TMPDIR,TEMP,TMP,NO_COLOR,VISUAL,EDITOR,KB_HOOK_DEBUG,KB_HOOK_THRESHOLD,KB_HOOK_MAX_ENTRIES,KB_TEST_WATCH_PERIOD_MS,KB_TEST_NETWORK_TIMEOUT_MS,KB_CLI,CLAUDE_PLUGIN_ROOT,KB_PROSE_LINT,KB_PROSE_LINT_MODEL,KB_PROSE_LINT_TIMEOUT_MS,KB_PROSE_LINT_CLAUDE,GIT_KB_JUDGE,GIT_KB_CAPTURE,GIT_KB_CAPTURE_MODEL,GIT_KB_CAPTURE_TIMEOUT_MS,GIT_KB_CAPTURING,KB_DENO --allow-run=git,deno"
if "%profile%"=="export" set "flags=--allow-read --allow-write --allow-sys=uid --allow-env=KB_DIR,CLAUDE_PLUGIN_DATA,XDG_CONFIG_HOME,XDG_CACHE_HOME,XDG_DATA_HOME,HOME,USERPROFILE,TMPDIR,TEMP,TMP,NO_COLOR,VISUAL,EDITOR,KB_HOOK_DEBUG,KB_HOOK_THRESHOLD,KB_HOOK_MAX_ENTRIES,KB_TEST_WATCH_PERIOD_MS,KB_TEST_NETWORK_TIMEOUT_MS,KB_CLI,CLAUDE_PLUGIN_ROOT,KB_PROSE_LINT,KB_PROSE_LINT_MODEL,KB_PROSE_LINT_TIMEOUT_MS,KB_PROSE_LINT_CLAUDE,GIT_KB_JUDGE,GIT_KB_CAPTURE,GIT_KB_CAPTURE_MODEL,GIT_KB_CAPTURE_TIMEOUT_MS,GIT_KB_CAPTURING,KB_DENO"
if "%profile%"=="setup" set "flags=--allow-read --allow-write --allow-env=KB_DIR,CLAUDE_PLUGIN_DATA,XDG_CONFIG_HOME,XDG_CACHE_HOME,XDG_DATA_HOME,HOME,USERPROFILE,TMPDIR,TEMP,TMP,NO_COLOR,VISUAL,EDITOR,KB_HOOK_DEBUG,KB_HOOK_THRESHOLD,KB_HOOK_MAX_ENTRIES,KB_TEST_WATCH_PERIOD_MS,KB_TEST_NETWORK_TIMEOUT_MS,KB_CLI,CLAUDE_PLUGIN_ROOT,KB_PROSE_LINT,KB_PROSE_LINT_MODEL,KB_PROSE_LINT_TIMEOUT_MS,KB_PROSE_LINT_CLAUDE,GIT_KB_JUDGE,GIT_KB_CAPTURE,GIT_KB_CAPTURE_MODEL,GIT_KB_CAPTURE_TIMEOUT_MS,GIT_KB_CAPTURING,KB_DENO,PATH,SHELL"
if "%profile%"=="pull" set "flags=--allow-read --allow-write --allow-sys=uid --allow-env=KB_DIR,CLAUDE_PLUGIN_DATA,XDG_CONFIG_HOME,XDG_CACHE_HOME,XDG_DATA_HOME,HOME,USERPROFILE,TMPDIR,TEMP,TMP,NO_COLOR,VISUAL,EDITOR,KB_HOOK_DEBUG,KB_HOOK_THRESHOLD,KB_HOOK_MAX_ENTRIES,KB_TEST_WATCH_PERIOD_MS,KB_TEST_NETWORK_TIMEOUT_MS,KB_CLI,CLAUDE_PLUGIN_ROOT,KB_PROSE_LINT,KB_PROSE_LINT_MODEL,KB_PROSE_LINT_TIMEOUT_MS,KB_PROSE_LINT_CLAUDE,GIT_KB_JUDGE,GIT_KB_CAPTURE,GIT_KB_CAPTURE_MODEL,GIT_KB_CAPTURE_TIMEOUT_MS,GIT_KB_CAPTURING,KB_DENO --allow-run=git,kill"
if "%profile%"=="judge" set "flags=--allow-read --allow-write=%cache% --allow-sys=uid --allow-env=KB_DIR,CLAUDE_PLUGIN_DATA,XDG_CONFIG_HOME,XDG_CACHE_HOME,XDG_DATA_HOME,HOME,USERPROFILE,TMPDIR,TEMP,TMP,NO_COLOR,VISUAL,EDITOR,KB_HOOK_DEBUG,KB_HOOK_THRESHOLD,KB_HOOK_MAX_ENTRIES,KB_TEST_WATCH_PERIOD_MS,KB_TEST_NETWORK_TIMEOUT_MS,KB_CLI,CLAUDE_PLUGIN_ROOT,KB_PROSE_LINT,KB_PROSE_LINT_MODEL,KB_PROSE_LINT_TIMEOUT_MS,KB_PROSE_LINT_CLAUDE,GIT_KB_JUDGE,GIT_KB_CAPTURE,GIT_KB_CAPTURE_MODEL,GIT_KB_CAPTURE_TIMEOUT_MS,GIT_KB_CAPTURING,KB_DENO --allow-run=%judge%,kill"
if "%profile%"=="handoff" set "flags=--allow-read --allow-write=%cache% --allow-sys=uid --allow-env=KB_DIR,CLAUDE_PLUGIN_DATA,XDG_CONFIG_HOME,XDG_CACHE_HOME,XDG_DATA_HOME,HOME,USERPROFILE,TMPDIR,TEMP,TMP,NO_COLOR,VISUAL,EDITOR,KB_HOOK_DEBUG,KB_HOOK_THRESHOLD,KB_HOOK_MAX_ENTRIES,KB_TEST_WATCH_PERIOD_MS,KB_TEST_NETWORK_TIMEOUT_MS,KB_CLI,CLAUDE_PLUGIN_ROOT,KB_PROSE_LINT,KB_PROSE_LINT_MODEL,KB_PROSE_LINT_TIMEOUT_MS,KB_PROSE_LINT_CLAUDE,GIT_KB_JUDGE,GIT_KB_CAPTURE,GIT_KB_CAPTURE_MODEL,GIT_KB_CAPTURE_TIMEOUT_MS,GIT_KB_CAPTURING,KB_DENO --allow-run=deno"
if "%profile%"=="capture" set "flags=--allow-read --allow-write --allow-sys=uid --allow-env=KB_DIR,CLAUDE_PLUGIN_DATA,XDG_CONFIG_HOME,XDG_CACHE_HOME,XDG_DATA_HOME,HOME,USERPROFILE,TMPDIR,TEMP,TMP,NO_COLOR,VISUAL,EDITOR,KB_HOOK_DEBUG,KB_HOOK_THRESHOLD,KB_HOOK_MAX_ENTRIES,KB_TEST_WATCH_PERIOD_MS,KB_TEST_NETWORK_TIMEOUT_MS,KB_CLI,CLAUDE_PLUGIN_ROOT,KB_PROSE_LINT,KB_PROSE_LINT_MODEL,KB_PROSE_LINT_TIMEOUT_MS,KB_PROSE_LINT_CLAUDE,GIT_KB_JUDGE,GIT_KB_CAPTURE,GIT_KB_CAPTURE_MODEL,GIT_KB_CAPTURE_TIMEOUT_MS,GIT_KB_CAPTURING,KB_DENO --allow-run=%judge%,git,kill"
deno run --quiet --no-prompt --no-config %v8% %flags% "%here%%bundle%" %*
exit /b %errorlevel%
rem The command word, as app/main.ts finds it: past --kb <dir> and the other options before it.
:command_word
set "first="
set "word=%~1"
if not defined word exit /b 0
if /i "%word%"=="--kb" (
  shift
  shift
  goto command_word
)
if "%word:~0,1%"=="-" if not "%word%"=="-" (
  shift
  goto command_word
)
set "first=%word%"
exit /b 0
