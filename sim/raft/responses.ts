/**
 * Reads log or snapshot data into a response before it is sent, as the node asks with the
 * message's `read` (src/raft/README.md, step 5).
 */
import { assert } from "../../src/common/index.js";
import type { OutboundMessage } from "../../src/raft/index.js";
import type { DiskState } from "./disk-state.js";

/** The message with its data filled in from `disk` (requests and plain responses unchanged). */
export function fillResponse(disk: DiskState, message: OutboundMessage): OutboundMessage {
  if (message.kind === "request" || message.read === null) return message;
  const { read, response } = message;
  if (read.kind === "log") {
    assert(response.api === "fetch", "a log read fills a Fetch response");
    const partition = response.body.responses[0]?.partitions[0];
    assert(partition !== undefined, "a Fetch response has the metadata partition");
    partition.records = disk.read(read.fromOffset, read.maxBytes);
  } else {
    assert(response.api === "fetchSnapshot", "a snapshot read fills a FetchSnapshot response");
    const partition = response.body.topics[0]?.partitions[0];
    assert(partition !== undefined, "a FetchSnapshot response has the metadata partition");
    partition.unalignedRecords = disk.readSnapshot(read.snapshotId, read.position, read.maxBytes);
  }
  return message;
}
