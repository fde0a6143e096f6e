#!/bin/bash
# sandbox.sh FILE TEST: run one integration test in a fresh sandbox.
# Called by run-integration.sh inside unshare (see lib.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$1"
declare -F "$2" > /dev/null || fail "$1 defines no function $2"
sandbox_setup
"$2"
