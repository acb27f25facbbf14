#!/bin/sh
# Runs every compiled test file with node's built-in runner. The file list is expanded by the
# shell because Node 20's runner does not expand quoted globs.
set -e
# The @platformatic/kafka tests run test/node22's scripts under Node 22 with that folder's own
# dependencies; a fresh checkout installs them once.
if [ ! -d test/node22/node_modules/@platformatic ]; then
  npm run -s clients:install
fi
# The test runners of docs/embedded.md's examples (vitest, jest) have their own folder too.
if [ ! -d test/examples/node_modules/vitest ]; then
  npm run -s examples:install
fi
# librdkafka with the consumer group protocol (KIP-848), for its C API's test; that test skips,
# saying why, when it cannot be built here.
if [ ! -f test/rdkafka-build/lib/librdkafka.a ]; then
  sh scripts/build-librdkafka.sh || echo "librdkafka could not be built; its KIP-848 test skips" >&2
fi
files=$(find dist/src dist/sim dist/test dist/chaos -name '*.test.js' 2>/dev/null | sort)
if [ -z "$files" ]; then
  echo "no test files found under dist/" >&2
  exit 1
fi
# shellcheck disable=SC2086
exec node --test --test-concurrency=2 $files
