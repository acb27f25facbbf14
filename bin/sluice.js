#!/usr/bin/env node
// The `sluice` command. The TypeScript sources are compiled to dist/ by `npm run build`.
import { main } from "../dist/src/cli/index.js";

// A reader that stops early (`sluice dump-log ... | head`) closes the pipe; that ends the output,
// it is not a failure.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2));
