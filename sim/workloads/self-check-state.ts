/**
 * The checker of the simulator self-check workload: it hears what the simulated processes did
 * and records every broken invariant (a simulated process cannot throw to the runner, as its
 * work runs in scheduled events).
 */
export class SelfCheckState {
  readonly violations: string[] = [];
  private readonly sentMessages = new Map<string, { from: string; to: string }>();
  private readonly acknowledgedCheckpoints = new Map<string, number>();
  private readonly streamBytesSent = new Map<number, number>();
  private nextStreamNumber = 1;
  deliveredMessages = 0;
  recoveries = 0;
  streamBytesVerified = 0;

  get hasFailed(): boolean {
    return this.violations.length > 0;
  }

  fail(reason: string): void {
    this.violations.push(reason);
  }

  messageSent(id: string, from: string, to: string): void {
    this.sentMessages.set(id, { from, to });
  }

  /** Invariant: a delivered message was sent, by the node it claims, to the node receiving it. */
  messageDelivered(id: string, from: string, to: string): void {
    const sent = this.sentMessages.get(id);
    if (sent === undefined) return this.fail(`message ${id} was delivered but never sent`);
    if (sent.from !== from || sent.to !== to) {
      return this.fail(`message ${id} from ${sent.from} to ${sent.to} arrived as ${from}->${to}`);
    }
    this.deliveredMessages += 1;
  }

  /** A checkpoint became durable (its folder was synced after the rename). */
  checkpointAcknowledged(node: string, length: number): void {
    this.acknowledgedCheckpoints.set(node, length);
  }

  /**
   * Invariants after a restart: the checkpoint never goes back, and every byte it covers (all
   * synced before it was written) survived in the log, unchanged.
   */
  checkRecovery(node: string, checkpoint: number, log: Uint8Array): void {
    this.recoveries += 1;
    const acknowledged = this.acknowledgedCheckpoints.get(node) ?? 0;
    if (checkpoint < acknowledged) {
      return this.fail(`${node}: checkpoint ${checkpoint} is behind the durable ${acknowledged}`);
    }
    if (log.length < checkpoint) {
      return this.fail(`${node}: log has ${log.length} bytes, checkpoint says ${checkpoint}`);
    }
    for (let position = 0; position < checkpoint; position++) {
      if (log[position] !== logByte(node, position)) {
        return this.fail(`${node}: synced log byte ${position} changed`);
      }
    }
  }

  newStream(): number {
    const number = this.nextStreamNumber++;
    this.streamBytesSent.set(number, 0);
    return number;
  }

  streamSent(stream: number, length: number): void {
    this.streamBytesSent.set(stream, (this.streamBytesSent.get(stream) ?? 0) + length);
  }

  /** Invariant: a stream delivers exactly the bytes written to it, in order, and no more. */
  streamReceived(stream: number, position: number, bytes: Uint8Array): void {
    const sent = this.streamBytesSent.get(stream);
    if (sent === undefined) return this.fail(`stream ${stream} delivered but never opened`);
    if (position + bytes.length > sent) {
      return this.fail(`stream ${stream} delivered ${position + bytes.length} of ${sent} bytes`);
    }
    for (let index = 0; index < bytes.length; index++) {
      if (bytes[index] !== streamByte(stream, position + index)) {
        return this.fail(`stream ${stream} byte ${position + index} is corrupt`);
      }
    }
    this.streamBytesVerified += bytes.length;
  }
}

/** The byte a node's log holds at `position`. */
export function logByte(node: string, position: number): number {
  return (position * 31 + node.charCodeAt(node.length - 1) * 7) & 0xff;
}

/** The byte stream `stream` carries at `position` (after its 4-byte header). */
export function streamByte(stream: number, position: number): number {
  return (position * 13 + stream * 101 + (position >>> 8)) & 0xff;
}
