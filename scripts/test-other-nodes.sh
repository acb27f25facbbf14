#!/bin/sh
# Runs the unit tests (dist/src) again under each other supported Node.js major version, taken
# from the npm registry (`npx -y node@N`), after `npm test` has run everything under this one:
# the code paths that differ between Node versions (streams, sockets, file handles, timers,
# the test runner) are exercised by the unit tests; the real-process tests start `sluice` with
# the Node that runs them and stay on the main version.
set -e
files=$(find dist/src -name '*.test.js' | sort)
for version in ${SLUICE_OTHER_NODES:-22 24}; do
  echo "unit tests under Node $version"
  # shellcheck disable=SC2086
  npx -y "node@$version" --test --test-concurrency=2 --test-reporter=dot $files
done
