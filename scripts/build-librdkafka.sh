#!/bin/sh
# Builds librdkafka from the sources node-rdkafka publishes on the npm registry (test/rdkafka-build
# pins the version), as a static library for test/clients/librdkafka-consumer-group.test.ts: the
# librdkafka of Debian 12 (2.0.2) predates the consumer group protocol of KIP-848. Only what that
# test needs is built: no TLS, SASL, HTTP or compression libraries. Skips what is built already;
# leaves the header in $dir/include/librdkafka and the library in $dir/lib.
set -e
dir=test/rdkafka-build
src=$dir/node_modules/node-rdkafka/deps/librdkafka
if [ ! -f "$src/configure" ]; then
  npm ci --prefix "$dir" --ignore-scripts --no-audit --no-fund
fi
if [ ! -f "$dir/lib/librdkafka.a" ]; then
  (cd "$src" && ./configure --disable-ssl --disable-gssapi --disable-curl --disable-zstd \
    --disable-zlib --disable-lz4-ext > ../../../../build.txt 2>&1 &&
    make -j2 -C src librdkafka.a >> ../../../../build.txt 2>&1)
  mkdir -p "$dir/include/librdkafka" "$dir/lib"
  cp "$src/src/rdkafka.h" "$dir/include/librdkafka/"
  cp "$src/src/librdkafka.a" "$dir/lib/"
fi
