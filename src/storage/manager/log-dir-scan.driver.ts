/**
 * The start of the log manager, dir by dir, before any log is opened: create the dir, check its
 * identity (meta.properties), format it when allowed, take the clean-shutdown marker, read the
 * checkpoints and list the partition folders. A failure of the disk makes the dir offline (the
 * broker runs on the others, as Kafka does); an identity of another cluster or node is fatal.
 */
import { uuidFromRandomBytes, type Uuid } from "../../common/index.js";
import type { Clock, FileSystem, Logger, Random } from "../../ports/index.js";
import { readTextFileIfExists } from "../atomic-file.driver.js";
import { dirname, joinPath } from "../../common/index.js";
import { verifyLogDirIdentity, writeMetaProperties } from "../meta-properties.driver.js";
import {
  LogDirIdentityError,
  type ExpectedIdentity,
  type MetaProperties,
} from "../meta-properties.js";
import { CLEAN_SHUTDOWN_FILE, parseCleanShutdown } from "./clean-shutdown.js";
import { LogDirCheckpoints, readOffsetsLeniently } from "./log-dir-checkpoints.driver.js";
import { rethrowUnlessStorageFailure } from "./storage-failure.js";

/** The ports the start-up reads and writes through. */
export interface LoaderContext {
  readonly fileSystem: FileSystem;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: Logger;
}

/** A log dir without meta.properties while formatting was not allowed. */
export class LogDirUnformattedError extends Error {
  override readonly name = "LogDirUnformattedError";
  constructor(readonly logDir: string) {
    super(`log dir ${logDir} has no meta.properties; format the storage before starting`);
  }
}

/** What start-up found in an online dir. */
export interface DirScan {
  readonly logDir: string;
  readonly directoryId: Uuid;
  readonly hadCleanShutdown: boolean;
  /** The epoch in the clean-shutdown marker, undefined without a readable one. */
  readonly brokerEpoch: number | undefined;
  readonly recoveryPoints: ReadonlyMap<string, number>;
  readonly logStartOffsets: ReadonlyMap<string, number>;
  readonly highWatermarks: ReadonlyMap<string, number>;
  readonly folderNames: readonly string[];
}

/** One dir after start-up: scanned, or offline and why. */
export type DirStart =
  | { readonly kind: "online"; readonly scan: DirScan }
  | { readonly kind: "offline"; readonly logDir: string; readonly cause: unknown };

/** Creates the dir when missing and checks its identity; undefined identity = unformatted. */
export async function openLogDir(
  context: LoaderContext,
  logDir: string,
  identity: ExpectedIdentity,
): Promise<{ kind: "opened"; found: MetaProperties | undefined } | DirStart> {
  try {
    await createDirDurably(context.fileSystem, logDir);
    const found = await verifyLogDirIdentity(context.fileSystem, logDir, identity);
    return { kind: "opened", found };
  } catch (error) {
    if (error instanceof LogDirIdentityError) throw error;
    rethrowUnlessStorageFailure(error);
    context.logger.error("log dir failed while starting", { logDir, error: String(error) });
    return { kind: "offline", logDir, cause: error };
  }
}

/**
 * Creates `path` and its missing parents, and makes their entries durable, as Kafka flushes the
 * parent of a log dir it creates: otherwise a crash could lose the dir with everything in it.
 */
export async function createDirDurably(fileSystem: FileSystem, path: string): Promise<void> {
  const created: string[] = [];
  for (let at = path; (await fileSystem.stat(at)) === undefined; at = dirname(at)) {
    created.push(at);
    if (dirname(at) === at) break;
  }
  if (created.length === 0) return;
  await fileSystem.mkdir(path, { recursive: true });
  for (const folder of created) await fileSystem.syncDirectory(dirname(folder));
}

/**
 * The dir's directory id, writing meta.properties first when the dir is unformatted (allowed by
 * `mayFormat`) or was formatted before Kafka 3.7 gave dirs an id (KIP-858).
 */
export async function ensureFormatted(
  context: LoaderContext,
  options: {
    logDir: string;
    found: MetaProperties | undefined;
    identity: ExpectedIdentity;
    mayFormat: boolean;
  },
): Promise<Uuid> {
  const { logDir, found, identity } = options;
  if (found === undefined && !options.mayFormat) throw new LogDirUnformattedError(logDir);
  if (found?.directoryId !== undefined) return found.directoryId;
  const directoryId = randomUuid(context.random);
  const properties = { version: 1, ...identity, directoryId } as const;
  await writeMetaProperties(context.fileSystem, logDir, properties, context.clock.nowMs());
  context.logger.info("log dir formatted", { logDir, directoryId });
  return directoryId;
}

/** A random Uuid, drawn again while it is one Kafka reserves. */
export function randomUuid(random: Random): Uuid {
  for (;;) {
    const uuid = uuidFromRandomBytes(random.fill(new Uint8Array(16)));
    if (uuid !== undefined) return uuid;
  }
}

/**
 * Reads what the dir holds. The clean-shutdown marker is deleted (durably) as soon as it is
 * seen, so that a crash while loading or running counts as unclean next time (KAFKA-10471).
 */
export async function scanLogDir(
  context: LoaderContext,
  logDir: string,
  directoryId: Uuid,
): Promise<DirScan> {
  const { fileSystem, logger } = context;
  const markerPath = joinPath(logDir, CLEAN_SHUTDOWN_FILE);
  const marker = await readTextFileIfExists(fileSystem, markerPath);
  if (marker !== undefined) {
    await fileSystem.unlink(markerPath);
    await fileSystem.syncDirectory(logDir);
  }
  const checkpoints = new LogDirCheckpoints(fileSystem, logDir);
  const recoveryPoints = await readOffsetsLeniently(checkpoints.recoveryPoints, logger);
  const logStartOffsets = await readOffsetsLeniently(checkpoints.logStartOffsets, logger);
  const highWatermarks = await readOffsetsLeniently(checkpoints.highWatermarks, logger);
  const folderNames: string[] = [];
  for (const name of await fileSystem.readdir(logDir)) {
    const stat = await fileSystem.stat(joinPath(logDir, name));
    if (stat?.isDirectory === true) folderNames.push(name);
  }
  return {
    logDir,
    directoryId,
    hadCleanShutdown: marker !== undefined,
    brokerEpoch: marker === undefined ? undefined : parseCleanShutdown(marker),
    recoveryPoints,
    logStartOffsets,
    highWatermarks,
    folderNames,
  };
}

/** Every start-up step of the dirs up to the listing, dirs side by side. */
export async function startLogDirs(
  context: LoaderContext,
  options: { logDirs: readonly string[]; identity: ExpectedIdentity; formatUnformatted: boolean },
): Promise<DirStart[]> {
  const opened = await Promise.all(
    options.logDirs.map((logDir) => openLogDir(context, logDir, options.identity)),
  );
  // Kafka formats a new, empty dir added to log.dirs when another dir proves the identity.
  const isAnyFormatted = opened.some((dir) => dir.kind === "opened" && dir.found !== undefined);
  const mayFormat = options.formatUnformatted || isAnyFormatted;
  return Promise.all(
    opened.map(async (dir, index): Promise<DirStart> => {
      if (dir.kind !== "opened") return dir;
      const logDir = options.logDirs[index] as string;
      try {
        const found = dir.found;
        const directoryId = await ensureFormatted(context, {
          logDir,
          found,
          identity: options.identity,
          mayFormat,
        });
        return { kind: "online", scan: await scanLogDir(context, logDir, directoryId) };
      } catch (error) {
        rethrowUnlessStorageFailure(error);
        context.logger.error("log dir failed while starting", { logDir, error: String(error) });
        return { kind: "offline", logDir, cause: error };
      }
    }),
  );
}
