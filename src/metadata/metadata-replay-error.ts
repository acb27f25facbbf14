/**
 * The error a committed metadata record raises when it cannot be applied: it names an entity the
 * image does not hold (a PartitionChangeRecord for an unknown topic id, a FenceBrokerRecord for an
 * unregistered broker or a stale broker epoch), or carries a value Kafka defines no meaning for.
 * The controller never commits such a record, so meeting one means the log or our code is wrong;
 * the loader stops rather than build an image that disagrees with the other nodes.
 */
export class MetadataReplayError extends Error {
  override readonly name = "MetadataReplayError";
  /** The log offset of the record, when the caller knew it. */
  readonly offset: number | undefined;

  constructor(message: string, options: { offset?: number; cause?: unknown } = {}) {
    super(options.offset === undefined ? message : `${message} (at offset ${options.offset})`, {
      cause: options.cause,
    });
    this.offset = options.offset;
  }

  /** This error again, now carrying the offset of the record that raised it. */
  atOffset(offset: number): MetadataReplayError {
    if (this.offset !== undefined) return this;
    return new MetadataReplayError(this.message, { offset, cause: this.cause ?? this });
  }
}

export function isMetadataReplayError(error: unknown): error is MetadataReplayError {
  return error instanceof MetadataReplayError;
}
