import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { translateErrors } from "./file-system-error.js";

/**
 * Creates a new, empty folder in the system's temporary folder, named `prefix` and six random
 * characters (mkdtemp), and resolves to its path. Removing it is the caller's work (the
 * FileSystem port's recursive rmdir).
 */
export async function createTemporaryDirectory(prefix: string): Promise<string> {
  const base = join(tmpdir(), prefix);
  return translateErrors("mkdtemp", base, () => mkdtemp(base));
}
