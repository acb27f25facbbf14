/**
 * POSIX-style path helpers for domain code, which may not import node:path. Paths use "/" as the
 * separator on every platform Sluice supports.
 */
export function joinPath(...parts: readonly string[]): string {
  const joined = parts.filter((part) => part.length > 0).join("/");
  return joined.replace(/\/{2,}/g, "/");
}

/** The folder part of `path` ("." for a bare name). */
export function dirname(path: string): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, "") : path;
  const slash = trimmed.lastIndexOf("/");
  if (slash < 0) return ".";
  if (slash === 0) return "/";
  return trimmed.slice(0, slash);
}

export function basename(path: string): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, "") : path;
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}
