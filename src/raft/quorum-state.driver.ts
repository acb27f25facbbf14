/**
 * The quorum-state file of the metadata log's folder: the node's election state (leader,
 * epoch, vote) as Kafka's QuorumStateData JSON, version 1. It is replaced atomically and
 * durably, because a vote must survive a crash before it is cast.
 */
import { joinPath, ZERO_UUID } from "../common/index.js";
import type { FileSystem } from "../ports/index.js";
import { quorumStateFromJson, quorumStateToJson } from "../protocol/index.js";
import { readTextFileIfExists, writeTextFileAtomically } from "../storage/index.js";
import { EMPTY_ELECTION_STATE, type PersistedElectionState } from "./initial-state.js";
import type { QuorumStateToPersist } from "./output.js";

/** The file's name, as Kafka's. */
export const QUORUM_STATE_FILE = "quorum-state";

/** The QuorumStateData version written (1: with votedDirectoryId, KIP-853). */
const QUORUM_STATE_VERSION = 1;

/**
 * The election state in `dir`, or the empty one when the file does not exist. Throws
 * DecodeError when the file is not QuorumStateData JSON: a node must not guess its vote.
 */
export async function readQuorumState(
  fs: FileSystem,
  dir: string,
): Promise<PersistedElectionState> {
  const text = await readTextFileIfExists(fs, joinPath(dir, QUORUM_STATE_FILE));
  if (text === undefined) return EMPTY_ELECTION_STATE;
  const { data } = quorumStateFromJson(text);
  return {
    leaderId: data.leaderId,
    leaderEpoch: Math.max(0, data.leaderEpoch),
    votedId: data.votedId,
    votedDirectoryId: data.votedDirectoryId || ZERO_UUID,
  };
}

/** Replaces the file in `dir` with `state`, atomically and durably. */
export async function writeQuorumState(
  fs: FileSystem,
  dir: string,
  state: QuorumStateToPersist,
): Promise<void> {
  const text = quorumStateToJson(
    {
      leaderId: state.leaderId,
      leaderEpoch: state.leaderEpoch,
      votedId: state.votedId,
      votedDirectoryId: state.votedDirectoryId,
    },
    QUORUM_STATE_VERSION,
  );
  await writeTextFileAtomically(fs, joinPath(dir, QUORUM_STATE_FILE), text);
}
