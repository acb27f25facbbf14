/**
 * Renders Raft messages and outputs as the short lines scenario files expect: only the fields
 * a reader needs to follow the protocol, in a fixed order, so a diff shows behaviour changes.
 */
import { errorName, ErrorCode } from "../../../src/common/index.js";
import {
  completeBatches,
  decodeRecords,
  decodeControlRecord,
} from "../../../src/protocol/index.js";
import type { RaftRequest, RaftResponse } from "../../../src/raft/index.js";

/** The error name, or nothing for NONE. */
function error(code: number): string {
  return code === ErrorCode.NONE ? "" : ` error=${errorName(code) ?? code}`;
}

/** One line per batch: offsets, epoch, and the control types or the record values. */
export function describeBatches(bytes: Uint8Array | null): string {
  if (bytes === null || bytes.length === 0) return "[]";
  const walk = completeBatches(bytes, { maxBatchBytes: bytes.length });
  if (!walk.ok) return "[corrupt]";
  const parts = walk.batches.map((header) => {
    const decoded = decodeRecords(header.bytes.subarray(0, header.sizeInBytes), {
      maxDecompressedBytes: 1 << 24,
    });
    const range =
      header.baseOffset === header.lastOffset
        ? `${header.baseOffset}`
        : `${header.baseOffset}..${header.lastOffset}`;
    if (!decoded.ok) return `${range}@${header.partitionLeaderEpoch} corrupt`;
    const contents = decoded.records.map((record) => {
      if (!header.isControl) return new TextDecoder().decode(record.value ?? new Uint8Array(0));
      const control = decodeControlRecord(record);
      return control.ok ? control.control.type : "badControl";
    });
    return `${range}@${header.partitionLeaderEpoch}:${contents.join(",")}`;
  });
  return `[${parts.join(" ")}]`;
}

/** A request as `Api{fields}`. */
export function describeRequest(request: RaftRequest): string {
  switch (request.api) {
    case "vote": {
      const p = request.body.topics[0]?.partitions[0];
      const kind = p?.preVote ? "PreVote" : "Vote";
      return (
        `${kind}{epoch=${p?.candidateEpoch} candidate=${p?.candidateId}` +
        ` last=${p?.lastOffsetEpoch}/${p?.lastOffset}}`
      );
    }
    case "beginQuorumEpoch": {
      const p = request.body.topics[0]?.partitions[0];
      return `BeginQuorumEpoch{epoch=${p?.leaderEpoch} leader=${p?.leaderId}}`;
    }
    case "endQuorumEpoch": {
      const p = request.body.topics[0]?.partitions[0];
      return (
        `EndQuorumEpoch{epoch=${p?.leaderEpoch} leader=${p?.leaderId}` +
        ` successors=[${p?.preferredSuccessors.join(",")}]}`
      );
    }
    case "fetch": {
      const p = request.body.topics[0]?.partitions[0];
      return (
        `Fetch{epoch=${p?.currentLeaderEpoch} offset=${p?.fetchOffset}` +
        ` lastEpoch=${p?.lastFetchedEpoch} maxWait=${request.body.maxWaitMs}}`
      );
    }
    case "fetchSnapshot": {
      const p = request.body.topics[0]?.partitions[0];
      return (
        `FetchSnapshot{epoch=${p?.currentLeaderEpoch}` +
        ` snapshot=${p?.snapshotId.endOffset}-${p?.snapshotId.epoch} position=${p?.position}}`
      );
    }
    case "describeQuorum":
      return "DescribeQuorum{}";
    case "addRaftVoter":
      return `AddRaftVoter{voter=${request.body.voterId}}`;
    case "removeRaftVoter":
      return `RemoveRaftVoter{voter=${request.body.voterId}}`;
    case "updateRaftVoter":
      return `UpdateRaftVoter{voter=${request.body.voterId}}`;
  }
}

/** A response as `ApiResponse{fields}`. */
export function describeResponse(response: RaftResponse): string {
  switch (response.api) {
    case "vote": {
      const p = response.body.topics[0]?.partitions[0];
      const verdict = p?.voteGranted ? "granted" : "refused";
      return (
        `VoteResponse{${verdict} epoch=${p?.leaderEpoch}` +
        ` leader=${p?.leaderId}${error(response.body.errorCode)}${error(p?.errorCode ?? 0)}}`
      );
    }
    case "beginQuorumEpoch":
    case "endQuorumEpoch": {
      const p = response.body.topics[0]?.partitions[0];
      const name =
        response.api === "beginQuorumEpoch" ? "BeginQuorumEpochResponse" : "EndQuorumEpochResponse";
      return (
        `${name}{epoch=${p?.leaderEpoch}` +
        ` leader=${p?.leaderId}${error(response.body.errorCode)}${error(p?.errorCode ?? 0)}}`
      );
    }
    case "fetch":
      return describeFetchResponse(response.body);
    case "fetchSnapshot": {
      const p = response.body.topics[0]?.partitions[0];
      const bytes = p?.unalignedRecords?.length ?? 0;
      const id = `${p?.snapshotId.endOffset}-${p?.snapshotId.epoch}`;
      const where = `size=${p?.size} position=${p?.position} bytes=${bytes}`;
      return `FetchSnapshotResponse{snapshot=${id} ${where}${error(p?.errorCode ?? 0)}}`;
    }
    case "describeQuorum":
      return describeQuorumResponse(response.body);
    case "addRaftVoter":
    case "removeRaftVoter":
    case "updateRaftVoter": {
      const name = {
        addRaftVoter: "AddRaftVoter",
        removeRaftVoter: "RemoveRaftVoter",
        updateRaftVoter: "UpdateRaftVoter",
      }[response.api];
      return `${name}Response{${errorName(response.body.errorCode) ?? response.body.errorCode}}`;
    }
  }
}

function describeFetchResponse(body: Extract<RaftResponse, { api: "fetch" }>["body"]): string {
  const p = body.responses[0]?.partitions[0];
  if (p === undefined) return `FetchResponse{${error(body.errorCode).trim()}}`;
  const parts = [
    `leader=${p.currentLeader.leaderId}`,
    `epoch=${p.currentLeader.leaderEpoch}`,
    `hw=${p.highWatermark}`,
  ];
  if (body.errorCode !== ErrorCode.NONE) parts.push(error(body.errorCode).trim());
  if (p.errorCode !== ErrorCode.NONE) parts.push(error(p.errorCode).trim());
  if (p.divergingEpoch.epoch >= 0)
    parts.push(`diverging=${p.divergingEpoch.epoch}/${p.divergingEpoch.endOffset}`);
  if (p.snapshotId.endOffset >= 0)
    parts.push(`snapshot=${p.snapshotId.endOffset}-${p.snapshotId.epoch}`);
  if (p.records !== null && p.records.length > 0)
    parts.push(`records=${describeBatches(p.records)}`);
  return `FetchResponse{${parts.join(" ")}}`;
}

function describeQuorumResponse(
  body: Extract<RaftResponse, { api: "describeQuorum" }>["body"],
): string {
  const p = body.topics[0]?.partitions[0];
  if (p === undefined || p.errorCode !== ErrorCode.NONE)
    return `DescribeQuorumResponse{${error(p?.errorCode ?? body.errorCode).trim()}}`;
  const replica = (r: {
    replicaId: number;
    logEndOffset: number;
    lastFetchTimestamp: number;
    lastCaughtUpTimestamp: number;
  }): string =>
    `${r.replicaId}:leo=${r.logEndOffset},fetch=${r.lastFetchTimestamp},` +
    `caughtUp=${r.lastCaughtUpTimestamp}`;
  const voters = p.currentVoters.map(replica).join(" ");
  const observers = p.observers.map(replica).join(" ");
  return (
    `DescribeQuorumResponse{leader=${p.leaderId} epoch=${p.leaderEpoch}` +
    ` hw=${p.highWatermark} voters=[${voters}] observers=[${observers}]}`
  );
}
