/**
 * The ISR under paused followers, with real processes: three combined nodes, a topic of
 * replication factor 3 with min.insync.replicas 2, kafkajs writing with acks=all. A follower
 * frozen with SIGSTOP past `replica.lag.time.max.ms` leaves the ISR and writes go on; raising
 * the topic's min.insync.replicas to 3 meanwhile puts the ISR below it, and acks=all is refused
 * with NOT_ENOUGH_REPLICAS; once the follower goes on (SIGCONT) it catches up, rejoins the ISR,
 * and acks=all works again. Every acknowledged value is read back once, in order. (Freezing a
 * second follower instead would freeze a majority of the controller quorum with it: no ISR
 * change could be committed, and acks=all would time out rather than be refused, in Kafka too.)
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import {
  incrementalAlterConfigs,
  produce,
  type ProduceResponse,
} from "../../src/protocol/index.js";
import { clientBatch } from "../replication/fixtures.js";
import { killAll, pollUntil, request } from "./cluster-process.js";
import { awaitProgress, startKafkajsProducer, stopProducers } from "./producers.js";
import { checkReadBack, readPartition } from "./read-back.js";
import {
  activeController,
  awaitPartitions,
  bootstrapServers,
  QUICK_FAILURE_DETECTION,
  startWithFullIsr,
  type Member,
} from "./three-nodes.js";

after(async () => {
  await stopProducers();
  await killAll();
});

const TOPIC = "paused";
const NOT_ENOUGH_REPLICAS = 19;
/** The topic resource type of the config APIs. */
const TOPIC_RESOURCE = 2;
const SETTINGS = { ...QUICK_FAILURE_DETECTION, "replica.lag.time.max.ms": "3000" };

/**
 * Sets the topic's min.insync.replicas through `member` (IncrementalAlterConfigs, forwarded to
 * the controller). Sent to a chosen live broker: a Kafka client sends it to the broker Metadata
 * names as controller, a random live one in KRaft, which may be the frozen follower before it
 * is fenced.
 */
async function setMinInsyncReplicas(member: Member, value: number): Promise<void> {
  const configs = [{ name: "min.insync.replicas", configOperation: 0, value: String(value) }];
  const response = await request(
    member.client,
    incrementalAlterConfigs,
    { resources: [{ resourceType: TOPIC_RESOURCE, resourceName: TOPIC, configs }] },
    { maxVersion: 1 },
  );
  assert.equal(response.responses[0]?.errorCode, 0, JSON.stringify(response.responses));
}

let probes = 0;

/** One acks=all Produce of one record to partition 0 at the leader; resolves to its error. */
async function produceOnce(leader: Member): Promise<number> {
  probes++;
  const records = clientBatch([{ timestamp: Date.now(), value: `probe-${probes}` }]);
  const response: ProduceResponse = await request(
    leader.client,
    produce,
    {
      acks: -1,
      timeoutMs: 5000,
      topicData: [{ name: TOPIC, partitionData: [{ index: 0, records }] }],
    },
    { maxVersion: 9 },
  );
  return response.responses[0]?.partitionResponses[0]?.errorCode ?? -1;
}

test(
  "a paused follower leaves the ISR and comes back; below min.insync.replicas acks=all is " +
    "refused; every acknowledged write is read back once",
  { timeout: 300_000 },
  async () => {
    const { members, full } = await startWithFullIsr("replication-pause", SETTINGS, TOPIC);
    const leaderId = full.get(0)?.leader;
    const leader = members.find((member) => member.nodeId === leaderId);
    assert.ok(leader !== undefined);
    // Freeze a follower that is not the active controller, so the quorum keeps its leader.
    const controllerId = await activeController(leader);
    const follower = members.find((member) => member !== leader && member.nodeId !== controllerId);
    assert.ok(follower !== undefined);
    const bootstrap = bootstrapServers(members);
    const producer = startKafkajsProducer(bootstrap, { topic: TOPIC, partition: 0 });
    await awaitProgress(producer, 10);

    follower.node.pause();
    await awaitPartitions(
      [leader],
      TOPIC,
      (partitions) => partitions.get(0)?.isr.length === 2,
      `follower ${follower.nodeId} out of the ISR`,
    );
    await awaitProgress(producer, 10);
    assert.equal(await produceOnce(leader), 0, "acks=all works with the ISR at min.insync");
    await setMinInsyncReplicas(leader, 3);
    await pollUntil(
      async () => ((await produceOnce(leader)) === NOT_ENOUGH_REPLICAS ? true : undefined),
      { deadlineMs: 30_000, intervalMs: 200, what: "acks=all refused below min.insync.replicas" },
    );

    follower.node.resume();
    await awaitPartitions(
      members,
      TOPIC,
      (partitions) => partitions.get(0)?.isr.length === 3,
      "the follower back in the ISR",
      60_000,
    );
    await awaitProgress(producer, 10);
    const { acknowledged } = await producer.stop();
    assert.ok(acknowledged.length > 0);
    const leaderNow = (
      await awaitPartitions(members, TOPIC, (p) => (p.get(0)?.leader ?? -1) >= 0, "a leader")
    ).get(0)?.leader;
    assert.ok(leaderNow !== undefined);
    assert.equal(await produceOnce(members[leaderNow - 1] as Member), 0, "acks=all works again");
    checkReadBack(
      "kafkajs",
      acknowledged,
      await readPartition(bootstrap, { topic: TOPIC, partition: 0 }),
    );
  },
);
