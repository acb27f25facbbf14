import type { FileHandle as PlatformFileHandle } from "node:fs/promises";
import { assert } from "../common/index.js";
import { FileSystemError, type FileHandle } from "../ports/index.js";
import { translateErrors } from "./file-system-error.js";

/**
 * An open file on the real disk. Appends are positional writes at the end this handle tracks
 * itself, so a file opened once and appended to by one writer never depends on O_APPEND and
 * several appends may be in flight at once without interleaving.
 */
export class NodeFileHandle implements FileHandle {
  private endPosition: number;
  private isClosed = false;

  /** Use NodeFileSystem.open; `size` is the file's length when it was opened. */
  constructor(
    readonly path: string,
    private readonly handle: PlatformFileHandle,
    size: number,
    private readonly isReadOnly: boolean,
  ) {
    this.endPosition = size;
  }

  async append(data: Uint8Array | readonly Uint8Array[]): Promise<number> {
    this.checkWritable("append");
    const chunks = data instanceof Uint8Array ? [data] : data;
    const length = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
    // The position is reserved before the write starts so that appends issued back to back
    // land one after another in issue order.
    const position = this.endPosition;
    this.endPosition += length;
    try {
      await translateErrors("append", this.path, () => this.writeAll(chunks, position));
    } catch (error) {
      // Give the reservation back when no later append took space after it, so that a retry
      // after a failed append does not leave a hole.
      if (this.endPosition === position + length) this.endPosition = position;
      throw error;
    }
    return position;
  }

  async write(data: Uint8Array, position: number): Promise<void> {
    this.checkWritable("write");
    assert(Number.isSafeInteger(position) && position >= 0, "write position must be >= 0");
    this.endPosition = Math.max(this.endPosition, position + data.byteLength);
    await translateErrors("write", this.path, () => this.writeAll([data], position));
  }

  async read(
    target: Uint8Array,
    targetOffset: number,
    length: number,
    position: number,
  ): Promise<number> {
    this.checkOpen("read");
    assert(targetOffset >= 0 && targetOffset + length <= target.byteLength, "read out of target");
    return translateErrors("read", this.path, async () => {
      let total = 0;
      // A single read may return fewer bytes than asked before the end of the file.
      while (total < length) {
        const { bytesRead } = await this.handle.read(
          target,
          targetOffset + total,
          length - total,
          position + total,
        );
        if (bytesRead === 0) break;
        total += bytesRead;
      }
      return total;
    });
  }

  async size(): Promise<number> {
    this.checkOpen("size");
    const stat = await translateErrors("fstat", this.path, () => this.handle.stat());
    return stat.size;
  }

  async sync(): Promise<void> {
    this.checkOpen("fsync");
    await translateErrors("fsync", this.path, () => this.handle.sync());
  }

  async datasync(): Promise<void> {
    this.checkOpen("fdatasync");
    await translateErrors("fdatasync", this.path, () => this.handle.datasync());
  }

  async truncate(length: number): Promise<void> {
    this.checkWritable("ftruncate");
    assert(Number.isSafeInteger(length) && length >= 0, "truncate length must be >= 0");
    await translateErrors("ftruncate", this.path, () => this.handle.truncate(length));
    this.endPosition = length;
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    await translateErrors("close", this.path, () => this.handle.close());
  }

  /** Writes `chunks` in order from `position`: one vectored write for several, then the rest. */
  private async writeAll(chunks: readonly Uint8Array[], position: number): Promise<void> {
    let at = position;
    let rest = chunks.filter((chunk) => chunk.byteLength > 0);
    // The kernel may write less than asked (a full disk is reported on the next call).
    while (rest.length > 1) {
      const { bytesWritten } = await this.handle.writev(rest, at);
      at += bytesWritten;
      rest = unwritten(rest, bytesWritten);
    }
    const last = rest[0];
    if (last === undefined) return;
    let written = 0;
    while (written < last.byteLength) {
      const result = await this.handle.write(last, written, last.byteLength - written, at);
      written += result.bytesWritten;
      at += result.bytesWritten;
    }
  }

  private checkOpen(syscall: string): void {
    if (this.isClosed) throw new FileSystemError("EBADF", syscall, this.path);
  }

  private checkWritable(syscall: string): void {
    this.checkOpen(syscall);
    if (this.isReadOnly) throw new FileSystemError("EBADF", syscall, this.path);
  }
}

/** What is left of `chunks` after their first `count` bytes. */
function unwritten(chunks: readonly Uint8Array[], count: number): Uint8Array[] {
  let skip = count;
  let index = 0;
  while (index < chunks.length && skip >= (chunks[index] as Uint8Array).byteLength) {
    skip -= (chunks[index] as Uint8Array).byteLength;
    index++;
  }
  const rest = chunks.slice(index);
  const head = rest[0];
  if (head !== undefined && skip > 0) rest[0] = head.subarray(skip);
  return rest;
}
