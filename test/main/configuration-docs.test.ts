import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { formatConfigDocs } from "../../src/main/index.js";

test("docs/configuration.md is the output of the configuration docs generator", () => {
  // Compiled to dist/test/main/, three levels below the repository root.
  const path = new URL("../../../docs/configuration.md", import.meta.url);
  assert.equal(readFileSync(path, "utf8"), formatConfigDocs());
});
