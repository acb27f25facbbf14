/**
 * Which errors take a log dir offline. Kafka treats every IOException of a dir's files as the
 * failure of that dir (JBOD): the dir goes offline and the broker keeps running on the others.
 * Broken invariants (AssertionError) are never a dir failure; they end the process. Neither is a
 * process out of file descriptors (EMFILE, ENFILE).
 */
import { AssertionError } from "../../common/index.js";
import { isFileSystemError } from "../../ports/index.js";
import { LogClosedError, LogFailedError, isResourceExhaustion } from "../log/index.js";
import { MalformedFileError } from "../malformed-file-error.js";

/**
 * True when `error` is a failure of the disk under a log dir: a FileSystemError from the port, a
 * file that cannot be parsed (Kafka reads a corrupt checkpoint as an IOException), or a log that
 * failed or was closed earlier for one of those reasons.
 */
export function isStorageFailure(error: unknown): boolean {
  if (error instanceof AssertionError) return false;
  // Running out of file descriptors is a resource limit of the process, not a failed disk: the
  // work that needed the descriptor is refused and the dir stays online.
  if (isResourceExhaustion(error)) return false;
  // A log closed under the manager's feet was closed by the failure of its dir, which a
  // concurrent operation (an append that failed) reported first.
  return (
    isFileSystemError(error) ||
    error instanceof MalformedFileError ||
    error instanceof LogFailedError ||
    error instanceof LogClosedError
  );
}

/** Rethrows `error` unless it is a storage failure; never lets an AssertionError through. */
export function rethrowUnlessStorageFailure(error: unknown): void {
  if (!isStorageFailure(error)) throw error;
}
