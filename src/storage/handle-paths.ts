/**
 * The open handles of a FileHandlePool by the folder of their path, so that a rename or removal
 * finds the handles it concerns without visiting every open file (a node may hold tens of
 * thousands).
 */
import { dirname } from "../common/index.js";

/** What HandlePaths needs of a handle. */
export interface PathHolder {
  readonly path: string;
}

export class HandlePaths<H extends PathHolder> {
  private readonly byFolder = new Map<string, Set<H>>();

  add(handle: H): void {
    const folder = dirname(handle.path);
    let held = this.byFolder.get(folder);
    if (held === undefined) {
      held = new Set();
      this.byFolder.set(folder, held);
    }
    held.add(handle);
  }

  /** Forgets `handle`; call before its path changes and add it again after. */
  delete(handle: H): void {
    const folder = dirname(handle.path);
    const held = this.byFolder.get(folder);
    if (held === undefined) return;
    held.delete(handle);
    if (held.size === 0) this.byFolder.delete(folder);
  }

  /** The handles of the file at `path`, or of the files anywhere below the folder at `path`. */
  under(path: string): H[] {
    const ofFile = [...(this.byFolder.get(dirname(path)) ?? [])].filter(
      (handle) => handle.path === path,
    );
    if (ofFile.length > 0) return ofFile;
    const prefix = `${path}/`;
    const found: H[] = [];
    for (const [folder, held] of this.byFolder) {
      if (folder === path || folder.startsWith(prefix)) found.push(...held);
    }
    return found;
  }
}
