import { assert } from "../../src/common/index.js";
import type { FileHandle } from "../../src/ports/index.js";
import type { FileOperation } from "./faults.js";
import type { FileInode, UnsyncedChange } from "./inodes.js";
import { fail } from "./namespace.js";

/** What a handle needs from its file system. */
export interface FileOperator {
  /** Runs `effect` after the disk's latency, unless a fault fires or the node crashed. */
  operate<T>(
    operation: FileOperation,
    path: string,
    effect: () => T,
    incarnation: number,
  ): Promise<T>;
  /** Changes a file's contents within the disk's capacity. */
  change(inode: FileInode, change: UnsyncedChange, syscall: string, path: string): void;
}

/** Concatenates `data` into one new array, so the caller may reuse its buffers at once. */
function copyOf(data: Uint8Array | readonly Uint8Array[]): Uint8Array {
  if (data instanceof Uint8Array) return data.slice();
  const total = data.reduce((sum, chunk) => sum + chunk.length, 0);
  const copy = new Uint8Array(total);
  let at = 0;
  for (const chunk of data) {
    copy.set(chunk, at);
    at += chunk.length;
  }
  return copy;
}

/**
 * An open simulated file. It belongs to the node incarnation that opened it: after a crash its
 * calls never complete, as the process that made them is gone.
 */
export class SimFileHandle implements FileHandle {
  private isClosed = false;

  constructor(
    readonly path: string,
    private readonly inode: FileInode,
    private readonly isReadOnly: boolean,
    private readonly operator: FileOperator,
    private readonly incarnation: number,
  ) {}

  append(data: Uint8Array | readonly Uint8Array[]): Promise<number> {
    const bytes = copyOf(data);
    return this.run("append", () => {
      this.checkWritable("append");
      const position = this.inode.content.length;
      this.operator.change(
        this.inode,
        { kind: "write", position, data: bytes },
        "append",
        this.path,
      );
      return position;
    });
  }

  write(data: Uint8Array, position: number): Promise<void> {
    assert(Number.isSafeInteger(position) && position >= 0, "write position must be >= 0");
    const bytes = data.slice();
    return this.run("write", () => {
      this.checkWritable("write");
      this.operator.change(
        this.inode,
        { kind: "write", position, data: bytes },
        "write",
        this.path,
      );
    });
  }

  read(
    target: Uint8Array,
    targetOffset: number,
    length: number,
    position: number,
  ): Promise<number> {
    assert(targetOffset >= 0 && targetOffset + length <= target.length, "read out of target");
    return this.run("read", () => {
      this.checkOpen("read");
      return this.inode.content.readInto(target, targetOffset, length, position);
    });
  }

  size(): Promise<number> {
    return this.run("size", () => {
      this.checkOpen("size");
      return this.inode.content.length;
    });
  }

  sync(): Promise<void> {
    return this.run("sync", () => {
      this.checkOpen("sync");
      this.inode.sync();
    });
  }

  datasync(): Promise<void> {
    return this.run("datasync", () => {
      this.checkOpen("datasync");
      this.inode.sync();
    });
  }

  truncate(length: number): Promise<void> {
    assert(Number.isSafeInteger(length) && length >= 0, "truncate length must be >= 0");
    return this.run("truncate", () => {
      this.checkWritable("truncate");
      this.operator.change(this.inode, { kind: "truncate", length }, "truncate", this.path);
    });
  }

  close(): Promise<void> {
    return this.run("close", () => {
      this.isClosed = true;
    });
  }

  private run<T>(operation: FileOperation, effect: () => T): Promise<T> {
    return this.operator.operate(operation, this.path, effect, this.incarnation);
  }

  private checkOpen(syscall: string): void {
    if (this.isClosed) fail("EBADF", syscall, this.path);
  }

  private checkWritable(syscall: string): void {
    this.checkOpen(syscall);
    if (this.isReadOnly) fail("EBADF", syscall, this.path);
  }
}
