#!/usr/bin/env bash
# Interop test (issue 3): a Python client generated from grok-tools.proto alone lists the tools,
# finalizes and reads a file against the real server, over TCP (port 0) and over a unix socket;
# then (issue 20) another reassembles 64 MiB of live run_terminal_cmd output byte-exact.
# Needs the server built (npx nx run server:build) and, on Debian:
#   apt-get install -y python3-grpcio python3-protobuf protobuf-compiler protobuf-compiler-grpc
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PYTHON="${PYTHON:-/usr/bin/python3}"
SERVER="$ROOT/packages/server/bin/grok-tools-server.js"
STARTUP_TIMEOUT_S=30

die() { echo "interop: $*" >&2; exit 1; }

[ -f "$ROOT/packages/server/dist/cli.js" ] || die "the server is not built: run npx nx run server:build"
"$PYTHON" -c "import grpc, google.protobuf" 2>/dev/null || die "$PYTHON lacks grpc/protobuf: apt-get install -y python3-grpcio python3-protobuf"
command -v protoc >/dev/null && command -v grpc_python_plugin >/dev/null || die "protoc/grpc_python_plugin missing: apt-get install -y protobuf-compiler protobuf-compiler-grpc"

TMP="$(mktemp -d /tmp/gt-interop-XXXXXX)"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then kill -TERM "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT

mkdir -p "$TMP/ws"
EXPECTED="second line: héllo ✓ interop"
printf 'first line\n%s\nthird line\n' "$EXPECTED" > "$TMP/ws/hello.txt"

# run_case NAME LISTEN [SERVER FLAGS...]: start a fresh server (a session is finalized once), run
# the client (python_live_client.py for the case named live), stop it.
run_case() {
  local name="$1" listen="$2" out="$TMP/$1.out" err="$TMP/$1.err" address="" i
  shift 2
  # Created before the server starts: the redirections below happen in the background child, which
  # may not have opened them yet when the loop first reads the file.
  : >"$out"
  : >"$err"
  node "$SERVER" --listen "$listen" --workspace "$TMP/ws" --state-dir "$TMP/state-$name" "$@" >"$out" 2>"$err" &
  SERVER_PID=$!
  for ((i = 0; i < STARTUP_TIMEOUT_S * 10; i++)); do
    address="$(sed -n 's/^{"event":"listening","address":"\([^"]*\)"}$/\1/p' "$out" | head -n1)"
    [ -n "$address" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$err" >&2; die "$name: the server exited before listening"; }
    sleep 0.1
  done
  [ -n "$address" ] || { cat "$err" >&2; die "$name: no listening line within ${STARTUP_TIMEOUT_S}s"; }
  case "$name" in
    tcp | live) [[ "$address" =~ ^127\.0\.0\.1:[1-9][0-9]*$ ]] || die "$name: unexpected bound address '$address'" ;;
    unix) [ "$address" = "$listen" ] || die "unix: bound address '$address', expected '$listen'" ;;
  esac
  echo "interop: $name: server listening at $address"
  local client=("$ROOT/test/interop/python_client.py" "$address" --file hello.txt --expect "$EXPECTED")
  [ "$name" = live ] && client=("$ROOT/test/interop/python_live_client.py" "$address" --workspace "$TMP/ws")
  if ! "$PYTHON" "${client[@]}" --proto "$ROOT/packages/proto/proto/grok-tools.proto"; then
    echo "--- server stderr ($name) ---" >&2; cat "$err" >&2
    die "$name: the python client failed"
  fi
  kill -TERM "$SERVER_PID"
  wait "$SERVER_PID" || die "$name: the server exited with status $? after SIGTERM"
  SERVER_PID=""
}

run_case tcp "127.0.0.1:0"
run_case unix "unix:$TMP/gt.sock"
echo "interop: OK (tcp and unix)"
# Issue 20: 64 MiB of live output reassembled byte-exact. The live buffer is raised above 64 MiB so
# that a reader slowed by a busy machine still gets every byte (the default 8 MiB cap would drop
# the middle, as designed, and this case checks reassembly, not the cap).
run_case live "127.0.0.1:0" --live-output-buffer-bytes 100663296
echo "interop: OK (live output, 64 MiB)"
