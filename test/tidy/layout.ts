/**
 * The folder layout rule: every folder of the module map that exists under src/ and sim/ shows
 * its public surface (index.ts) and says what it is (README.md), and no source file lives outside
 * the module map.
 */
import type { Offence } from "./offence.js";
import { moduleFolders } from "./rules.js";

/**
 * Offences for `paths`, the repository-relative paths of every file (not only sources, since
 * README.md is part of the rule). Paths outside src/ and sim/ are not its business.
 */
export function checkFolderLayout(paths: readonly string[]): Offence[] {
  const present = new Set(paths);
  const folders = new Set<string>();
  const offences: Offence[] = [];
  for (const path of paths) {
    if (!path.startsWith("src/") && !path.startsWith("sim/")) continue;
    const folder = topFolderOf(path);
    if (folder === undefined) {
      const message = "lies outside every folder of the module map";
      offences.push({ rule: "folder-layout", path, line: 0, message });
      continue;
    }
    folders.add(folder);
  }
  for (const folder of [...folders].sort()) {
    if (!(moduleFolders as readonly string[]).includes(folder)) {
      const message = "is not a folder of the module map; add it to the design and to rules.ts";
      offences.push({ rule: "folder-layout", path: folder, line: 0, message });
    }
    for (const required of ["index.ts", "README.md"]) {
      if (present.has(`${folder}/${required}`)) continue;
      const message = `has no ${required}`;
      offences.push({ rule: "folder-layout", path: folder, line: 0, message });
    }
  }
  return offences;
}

/** "src/storage" for "src/storage/log/segment.ts", "sim" for "sim/net.ts". */
function topFolderOf(path: string): string | undefined {
  const parts = path.split("/");
  const [root, second] = parts;
  if (root === "sim" && parts.length >= 2) return "sim";
  if (root === "src" && parts.length >= 3 && second !== undefined) return `src/${second}`;
  return undefined;
}
