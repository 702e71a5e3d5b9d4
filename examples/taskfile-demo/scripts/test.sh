#!/usr/bin/env bash
# A stand-in for a real test suite: a few checks on the demo project, with flags like a test runner.
set -euo pipefail

verbose=false
for arg in "$@"; do
  case "$arg" in
    -v | --verbose) verbose=true ;;
    *)
      echo "unknown flag: $arg (try --verbose)" >&2
      exit 2
      ;;
  esac
done

check() { # description, command...
  local description=$1
  shift
  if "$@"; then
    if $verbose; then echo "ok   $description"; fi
  else
    echo "FAIL $description" >&2
    exit 1
  fi
}

check "the Taskfile exists" test -f .agent/Taskfile.yml
check "the Taskfile is version 3" grep -q "^version: '3'" .agent/Taskfile.yml
check "this script is readable" test -r scripts/test.sh
echo "3 checks passed"
