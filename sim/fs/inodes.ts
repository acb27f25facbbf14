import { ByteBuffer } from "./byte-buffer.js";

/** A change to a file since its last sync, kept so that a crash can keep a prefix of them. */
export type UnsyncedChange =
  | { readonly kind: "write"; readonly position: number; readonly data: Uint8Array }
  | { readonly kind: "truncate"; readonly length: number };

/**
 * A file's contents twice over: what a reader sees now, and what survives a crash (the
 * contents at the last sync), with the changes made since then in order.
 */
export class FileInode {
  readonly kind = "file";
  content = new ByteBuffer();
  durable: Uint8Array = new Uint8Array(0);
  unsynced: UnsyncedChange[] = [];

  constructor(public modifiedMs: number) {}

  /** Applies `change` to the visible contents and remembers it until the next sync. */
  apply(change: UnsyncedChange): void {
    applyChange(this.content, change);
    this.unsynced.push(change);
  }

  /** Makes the visible contents durable (fsync). */
  sync(): void {
    this.durable = this.content.snapshot();
    this.unsynced = [];
  }
}

/** Applies one change to `buffer`. */
export function applyChange(buffer: ByteBuffer, change: UnsyncedChange): void {
  if (change.kind === "write") buffer.writeAt(change.position, change.data);
  else buffer.truncate(change.length);
}

/**
 * A folder's entries twice over: the visible ones, and those that survive a crash (as of the
 * last syncDirectory of this folder).
 */
export class DirectoryInode {
  readonly kind = "directory";
  entries = new Map<string, Inode>();
  durableEntries = new Map<string, Inode>();

  constructor(public modifiedMs: number) {}

  /** Makes the visible entries durable (fsync of the folder). */
  sync(): void {
    this.durableEntries = new Map(this.entries);
  }
}

/** Anything a folder entry can name. */
export type Inode = FileInode | DirectoryInode;

/**
 * The components of `path`, with "." and empty parts removed and ".." applied. Relative paths
 * are taken from the root, since a simulated process has no working folder.
 */
export function splitPath(path: string): string[] {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return parts;
}

/** The bytes of every file below `inode` (itself included), each file counted once. */
export function treeBytes(inode: Inode, seen = new Set<Inode>()): number {
  if (seen.has(inode)) return 0;
  seen.add(inode);
  if (inode.kind === "file") return inode.content.length;
  let total = 0;
  for (const child of inode.entries.values()) total += treeBytes(child, seen);
  return total;
}
