import assert from "node:assert/strict";
import { test } from "node:test";
import { parseOpenFileLimit } from "../adapters/index.js";
import { logOpenFileBudget, MIN_LOG_OPEN_FILES } from "./open-file-budget.js";

test("the logs get the configured budget, or half the process limit when that is smaller", () => {
  assert.equal(logOpenFileBudget(10_000, 1_048_576), 10_000);
  assert.equal(logOpenFileBudget(10_000, 4096), 2048);
  assert.equal(logOpenFileBudget(10_000, undefined), 10_000);
  assert.equal(logOpenFileBudget(10_000, 8), MIN_LOG_OPEN_FILES);
});

test("the soft open-file limit is read from a /proc limits text", () => {
  const text = [
    "Limit                     Soft Limit           Hard Limit           Units     ",
    "Max processes             95480                95480                processes ",
    "Max open files            4096                 8192                 files     ",
    "",
  ].join("\n");
  assert.equal(parseOpenFileLimit(text), 4096);
  assert.equal(parseOpenFileLimit(text.replace("4096 ", "unlimited")), undefined);
  assert.equal(parseOpenFileLimit("Max cpu time unlimited"), undefined);
});
