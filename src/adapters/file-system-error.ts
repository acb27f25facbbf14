import { FileSystemError, type FileSystemErrorCode } from "../ports/index.js";

/** The platform error codes FileSystemError keeps by name; everything else becomes EOTHER. */
const knownCodes: ReadonlySet<string> = new Set<FileSystemErrorCode>([
  "ENOENT",
  "EEXIST",
  "ENOTDIR",
  "EISDIR",
  "ENOTEMPTY",
  "EIO",
  "ENOSPC",
  "EBADF",
  "EACCES",
  "EMFILE",
  "ENFILE",
]);

/** The platform code of a Node system error, when `error` carries one. */
function platformCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Translates an error thrown by node:fs into a FileSystemError with the same code (EOTHER when
 * the port has no name for it), keeping the original as `cause`.
 */
export function toFileSystemError(error: unknown, syscall: string, path: string): FileSystemError {
  if (error instanceof FileSystemError) return error;
  const code = platformCode(error);
  // EPERM is how some platforms report a permission problem that others call EACCES.
  const translated: FileSystemErrorCode =
    code === undefined
      ? "EOTHER"
      : code === "EPERM"
        ? "EACCES"
        : knownCodes.has(code)
          ? (code as FileSystemErrorCode)
          : "EOTHER";
  return new FileSystemError(translated, syscall, path, { cause: error });
}

/** Runs `operation`, translating whatever it throws with toFileSystemError. */
export async function translateErrors<T>(
  syscall: string,
  path: string,
  operation: () => Promise<T>,
): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw toFileSystemError(error, syscall, path);
  }
}
