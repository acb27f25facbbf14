#!/bin/sh
# Runs the real-client tests with a recording of the API versions each client used, then
# writes docs/compatibility.md from it (see test/clients/compatibility-record.ts).
set -e
recording=$(mktemp)
trap 'rm -f "$recording"' EXIT
# The tests check the matrix they are about to rewrite; a stale one is rewritten, not refused.
COMPAT_RECORDING="$recording" COMPAT_REWRITE=1 node --test \
  dist/test/clients/kcat.test.js dist/test/clients/kafkajs.test.js \
  dist/test/clients/kafkajs-consumer.test.js dist/test/clients/kafkajs-idempotent.test.js \
  dist/test/clients/kafkajs-transactions.test.js \
  dist/test/clients/platformatic.test.js dist/test/clients/platformatic-consumer-group.test.js
node dist/test/compatibility/write-matrix.js "$recording" > docs/compatibility.md
echo "wrote docs/compatibility.md"
