/**
 * Prints the configuration reference (docs/configuration.md) to standard output:
 * `node dist/src/main/config/print-docs.js > docs/configuration.md`.
 */
import { formatConfigDocs } from "./config-docs.js";

process.stdout.write(formatConfigDocs());
