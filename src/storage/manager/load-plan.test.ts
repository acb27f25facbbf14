import { test } from "node:test";
import assert from "node:assert/strict";
import { DuplicateLogDirectoriesError, planLoad } from "./load-plan.js";

const ID = "0123456789abcdef0123456789abcdef";

test("folders are sorted into current, future, deleted and ignored", () => {
  const plan = planLoad(
    [
      {
        logDir: "/a",
        folderNames: ["orders-0", `orders-1.${ID}-delete`, "lost+found", `x-0.${ID}-stray`],
      },
      { logDir: "/b", folderNames: ["orders-1", `orders-0.${ID}-future`, "__cluster_metadata-0"] },
    ],
    true,
  );
  assert.deepEqual(
    plan.currentLogs.map((folder) => `${folder.logDir}/${folder.name}`),
    ["/a/orders-0", "/b/orders-1"],
  );
  assert.deepEqual(
    plan.futureLogs.map((folder) => folder.name),
    [`orders-0.${ID}-future`],
  );
  assert.deepEqual(plan.promotions, []);
  assert.deepEqual(
    plan.deletedFolders.map((folder) => folder.name),
    [`orders-1.${ID}-delete`],
  );
  assert.deepEqual(
    plan.ignored.map((entry) => entry.name),
    ["lost+found", `x-0.${ID}-stray`],
  );
});

test("a future log without a current log is promoted only when every dir is online", () => {
  const listings = [
    { logDir: "/a", folderNames: [`orders-0.${ID}-delete`] },
    { logDir: "/b", folderNames: [`orders-0.${ID}-future`] },
  ];
  const online = planLoad(listings, true);
  assert.deepEqual(
    online.promotions.map((folder) => folder.logDir),
    ["/b"],
  );
  assert.deepEqual(online.futureLogs, []);
  const degraded = planLoad(listings, false);
  assert.deepEqual(degraded.promotions, []);
  assert.deepEqual(
    degraded.futureLogs.map((folder) => folder.logDir),
    ["/b"],
  );
});

test("the same partition's current log in two dirs refuses to load, naming both", () => {
  assert.throws(
    () =>
      planLoad(
        [
          { logDir: "/a", folderNames: ["orders-0"] },
          { logDir: "/b", folderNames: ["orders-0"] },
        ],
        true,
      ),
    (error: unknown) =>
      error instanceof DuplicateLogDirectoriesError &&
      error.message.includes("/a/orders-0") &&
      error.message.includes("/b/orders-0"),
  );
});
