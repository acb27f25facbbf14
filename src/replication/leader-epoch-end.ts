/**
 * Where an epoch ends on a leader (the leader's answer to OffsetsForLeaderEpoch and the epoch
 * check of a fetch), as a pure function. Kafka's leader records its epoch's start offset in the
 * leader-epoch cache when it is elected (makeLeader); this log records an epoch with its first
 * batch, so until the leader appends in its epoch the answers that depend on that entry are made
 * here, as Kafka's cache would give them with it.
 */

/** An epoch and the offset where it ends (both -1 when unknown). */
export interface EpochEnd {
  readonly epoch: number;
  readonly endOffset: number;
}

/**
 * Where `requestedEpoch` ends on the leader of `leaderEpoch`. While the log's latest epoch is
 * older than the leader's, the leader's epoch starts at the log end offset: a request for that
 * epoch (or a later one) ends there, and so does one for an epoch between the log's latest and
 * the leader's, which the leader never had: its largest epoch at most the requested one (the
 * requested one when the log has none) ends where the leader's begins. Otherwise the log answers.
 */
export function endOffsetOnLeader(
  requestedEpoch: number,
  leader: {
    readonly leaderEpoch: number;
    /** The epoch of the log's last batch, -1 when it has none. */
    readonly latestEpoch: number;
    readonly logEndOffset: number;
    /** The log's own answer, from its leader-epoch cache. */
    readonly endOffsetForEpoch: (epoch: number) => EpochEnd;
  },
): EpochEnd {
  const { leaderEpoch, latestEpoch, logEndOffset } = leader;
  if (latestEpoch >= leaderEpoch || requestedEpoch <= latestEpoch) {
    return leader.endOffsetForEpoch(requestedEpoch);
  }
  if (requestedEpoch >= leaderEpoch) return { epoch: leaderEpoch, endOffset: logEndOffset };
  return { epoch: latestEpoch >= 0 ? latestEpoch : requestedEpoch, endOffset: logEndOffset };
}
