import { isFileSystemError, type Connection, type FileHandle } from "../../src/ports/index.js";
import type { SimNode } from "../node.js";
import type { SeededRandom } from "../random.js";
import type { SimWorld } from "../world.js";
import { SimNetworkError } from "../net/errors.js";
import { logByte, streamByte, type SelfCheckState } from "./self-check-state.js";

/** A message of the self-check workload. */
export interface PingMessage {
  readonly id: string;
}

/** The port every self-check process listens on. */
export const streamPort = 9000;

/** What one incarnation of a simulated process works with. */
interface ProcessContext {
  readonly world: SimWorld<PingMessage>;
  readonly node: SimNode;
  readonly incarnation: number;
  readonly peers: readonly string[];
  readonly random: SeededRandom;
  readonly checker: SelfCheckState;
}

const sleep = (node: SimNode, delayMs: number): Promise<void> =>
  new Promise((resolve) => node.timers.schedule(delayMs, resolve));

const isAlive = (context: ProcessContext): boolean => context.node.isCurrent(context.incarnation);

/**
 * Starts the process of `node` (at the start and after each restart): it recovers its log from
 * disk, then appends and checkpoints, sends messages, and streams bytes to its peers.
 */
export function startProcess(
  world: SimWorld<PingMessage>,
  node: SimNode,
  peers: readonly string[],
  checker: SelfCheckState,
): void {
  const incarnation = node.incarnation;
  const random = world.scheduler.random.fork(`process/${node.name}/${incarnation}`);
  const context: ProcessContext = { world, node, incarnation, peers, random, checker };
  world.network.onMessage(node.name, (message, from) =>
    checker.messageDelivered(message.id, from, node.name),
  );
  const report = (error: unknown): void => checker.fail(`${node.name} process: ${String(error)}`);
  runDisk(context).catch(report);
  runMessages(context).catch(report);
  runStreams(context).catch(report);
}

async function runMessages(context: ProcessContext): Promise<void> {
  const { world, node, random, checker } = context;
  for (let sequence = 0; isAlive(context); sequence++) {
    await sleep(node, random.between(2, 30));
    const to = random.pick(context.peers);
    const id = `${node.name}/${context.incarnation}/${sequence}`;
    checker.messageSent(id, node.name, to);
    world.network.send(node.name, to, { id });
  }
}

async function runDisk(context: ProcessContext): Promise<void> {
  const { node, random, checker } = context;
  const disk = context.world.disk(node.name);
  try {
    await disk.mkdir("/data", { recursive: true });
    await disk.syncDirectory("/");
    const checkpoint = await readCheckpoint(context);
    const log = await disk.open("/data/log", { create: true });
    await disk.syncDirectory("/data");
    checker.checkRecovery(node.name, checkpoint, await readAll(log));
    await log.truncate(checkpoint);
    await log.sync();
    let length = checkpoint;
    while (isAlive(context)) {
      await sleep(node, random.between(1, 20));
      const chunk = new Uint8Array(random.between(1, 300));
      for (let index = 0; index < chunk.length; index++)
        chunk[index] = logByte(node.name, length + index);
      await log.append(chunk);
      length += chunk.length;
      if (random.chance(0.3)) await writeCheckpoint(context, log, length);
    }
  } catch (error) {
    // An injected disk error takes the log offline until the next restart, as in Kafka.
    if (!isFileSystemError(error)) throw error;
    context.world.scheduler.record(`${node.name} disk offline: ${error.code}`);
  }
}

/** The checkpoint protocol: sync the data, write a temporary file, sync it, rename, sync dir. */
async function writeCheckpoint(context: ProcessContext, log: FileHandle, length: number) {
  const disk = context.world.disk(context.node.name);
  await log.datasync();
  const temporary = await disk.open("/data/checkpoint.tmp", { create: true, truncate: true });
  await temporary.append(new TextEncoder().encode(String(length)));
  await temporary.sync();
  await temporary.close();
  await disk.rename("/data/checkpoint.tmp", "/data/checkpoint");
  await disk.syncDirectory("/data");
  context.checker.checkpointAcknowledged(context.node.name, length);
}

async function readCheckpoint(context: ProcessContext): Promise<number> {
  const disk = context.world.disk(context.node.name);
  if ((await disk.stat("/data/checkpoint")) === undefined) return 0;
  const file = await disk.open("/data/checkpoint", { readOnly: true });
  const text = new TextDecoder().decode(await readAll(file));
  await file.close();
  const value = Number(text);
  if (!Number.isSafeInteger(value) || text.length === 0) {
    context.checker.fail(`${context.node.name}: checkpoint file holds ${JSON.stringify(text)}`);
    return 0;
  }
  return value;
}

async function readAll(file: FileHandle): Promise<Uint8Array> {
  const size = await file.size();
  const content = new Uint8Array(size);
  const read = await file.read(content, 0, size, 0);
  return content.subarray(0, read);
}

async function runStreams(context: ProcessContext): Promise<void> {
  const { node, random } = context;
  const network = context.world.network.forNode(node.name);
  await network.listen({ host: node.name, port: streamPort }, (connection) =>
    receiveStream(context, connection),
  );
  while (isAlive(context)) {
    await sleep(node, random.between(10, 100));
    const peer = random.pick(context.peers);
    try {
      await sendStream(context, await network.connect({ host: peer, port: streamPort }));
    } catch (error) {
      // A refused or timed-out connect is an answer of the network; the loop tries again.
      if (!(error instanceof SimNetworkError)) throw error;
    }
  }
}

async function sendStream(context: ProcessContext, connection: Connection): Promise<void> {
  const { checker, random, node } = context;
  let isClosed = false;
  connection.attach({ data: () => {}, close: () => (isClosed = true) });
  const stream = checker.newStream();
  const header = new Uint8Array(4);
  new DataView(header.buffer).setUint32(0, stream);
  connection.write(header);
  let position = 0;
  for (let writes = random.between(1, 20); writes > 0 && !isClosed; writes--) {
    const chunk = new Uint8Array(random.between(1, 2000));
    for (let index = 0; index < chunk.length; index++)
      chunk[index] = streamByte(stream, position + index);
    checker.streamSent(stream, chunk.length);
    connection.write(random.chance(0.5) ? chunk : [chunk.subarray(0, 1), chunk.subarray(1)]);
    position += chunk.length;
    await sleep(node, random.between(0, 10));
  }
  connection.close();
}

/**
 * Checks a stream as it arrives. Its first 4 bytes name it; they may come split over several
 * chunks, as any frame header may.
 */
function receiveStream(context: ProcessContext, connection: Connection): void {
  let pending = new Uint8Array(0);
  let stream: number | undefined;
  let position = 0;
  const onData = (chunk: Uint8Array): void => {
    let bytes = chunk;
    if (stream === undefined) {
      const joined = new Uint8Array(pending.length + chunk.length);
      joined.set(pending);
      joined.set(chunk, pending.length);
      pending = joined;
      if (joined.length < 4) return;
      stream = new DataView(joined.buffer).getUint32(0);
      bytes = joined.subarray(4);
    }
    context.checker.streamReceived(stream, position, bytes);
    position += bytes.length;
  };
  // How a stream ends does not matter here: a reset is one of the faults being simulated.
  connection.attach({ data: onData, close: () => {} });
}
