#!/usr/bin/env node
// The `sluice` command. The TypeScript sources are compiled to dist/ by `npm run build`.
import { main } from "../dist/src/cli/index.js";

process.exitCode = await main(process.argv.slice(2));
