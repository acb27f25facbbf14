/**
 * Kafka's ReplicaManager and KafkaController metrics on the `/metrics` of real processes: three
 * combined nodes and a topic of replication factor 3 with min.insync.replicas 2. A follower
 * frozen with SIGSTOP leaves the ISR: the leader's scrape shows the partition under-replicated
 * and at its min ISR, the active controller's shows the fenced broker; once the follower goes
 * on, the ISR expands and both come back to 0. Each follower shows its lag.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { Scrape } from "../http/scrape.js";
import { killAll, pollUntil } from "./cluster-process.js";
import {
  activeController,
  QUICK_FAILURE_DETECTION,
  startWithFullIsr,
  type Member,
} from "./three-nodes.js";

after(async () => {
  await killAll();
});

const TOPIC = "watched";
const SETTINGS = { ...QUICK_FAILURE_DETECTION, "replica.lag.time.max.ms": "3000" };
const REPLICA_MANAGER = "kafka_server_replicamanager";
const CONTROLLER = "kafka_controller_kafkacontroller";

/** Scrapes `member` until `check` holds of its metrics. */
async function scrapeUntil(
  member: Member,
  check: (scrape: Scrape) => boolean,
  what: string,
): Promise<Scrape> {
  const { value } = await pollUntil(
    async () => {
      const scrape = await Scrape.of(member.http.port);
      return check(scrape) ? scrape : undefined;
    },
    { deadlineMs: 60_000, intervalMs: 200, what },
  );
  return value;
}

/**
 * Checks the metrics of the healthy cluster: the leader leads its one partition, fully
 * replicated; only the active controller counts itself active. Returns the leader's ISR
 * expansions so far.
 */
async function expectHealthy(
  members: readonly Member[],
  { leader, controller }: { readonly leader: Member; readonly controller: Member },
): Promise<number> {
  const healthy = await scrapeUntil(
    leader,
    (scrape) => scrape.valueOf(`${REPLICA_MANAGER}_leadercount`) === 1,
    "the leader leading its partition",
  );
  assert.equal(healthy.valueOf(`${REPLICA_MANAGER}_underreplicatedpartitions`), 0);
  assert.equal(healthy.valueOf(`${REPLICA_MANAGER}_atminisrpartitioncount`), 0);
  assert.equal(healthy.valueOf(`${REPLICA_MANAGER}_partitioncount`), 1);
  const expandsBefore = healthy.valueOf(`${REPLICA_MANAGER}_isrexpands_total`) ?? 0;
  const onController = await Scrape.of(controller.http.port);
  assert.equal(onController.valueOf(`${CONTROLLER}_activecontrollercount`), 1);
  assert.equal(onController.valueOf(`${CONTROLLER}_activebrokercount`), 3);
  const others = members.filter((member) => member !== controller);
  for (const member of others) {
    const scrape = await Scrape.of(member.http.port);
    assert.equal(scrape.valueOf(`${CONTROLLER}_activecontrollercount`), 0);
  }
  // Each follower has the lag of the partition it follows, and MaxLag.
  for (const member of members.filter((each) => each !== leader)) {
    const lag = { topic: TOPIC, partition: "0" };
    const scrape = await scrapeUntil(
      member,
      (each) => each.valueOf("kafka_server_fetcherlagmetrics_consumerlag", lag) !== undefined,
      `the lag of follower ${member.nodeId}`,
    );
    const maxLag = scrape.valueOf("kafka_server_replicafetchermanager_maxlag", {
      clientId: "Replica",
    });
    assert.ok(maxLag !== undefined && maxLag >= 0);
  }
  return expandsBefore;
}

test(
  "a frozen follower makes its partition under-replicated on the leader's metrics and " +
    "fenced on the controller's, and both recover when it goes on",
  { timeout: 300_000 },
  async () => {
    const { members, full } = await startWithFullIsr("replication-metrics", SETTINGS, TOPIC);
    const leader = members.find((member) => member.nodeId === full.get(0)?.leader);
    assert.ok(leader !== undefined);
    const controllerId = await activeController(leader);
    const controller = members.find((member) => member.nodeId === controllerId);
    const follower = members.find((member) => member !== leader && member !== controller);
    assert.ok(controller !== undefined && follower !== undefined);

    const expandsBefore = await expectHealthy(members, { leader, controller });

    follower.node.pause();
    try {
      const shrunk = await scrapeUntil(
        leader,
        (scrape) => scrape.valueOf(`${REPLICA_MANAGER}_underreplicatedpartitions`) === 1,
        "the partition under-replicated on the leader",
      );
      // ISR 2 with min.insync.replicas 2: at the minimum, not under it.
      assert.equal(shrunk.valueOf(`${REPLICA_MANAGER}_atminisrpartitioncount`), 1);
      assert.equal(shrunk.valueOf(`${REPLICA_MANAGER}_underminisrpartitioncount`), 0);
      await scrapeUntil(
        controller,
        (scrape) =>
          scrape.valueOf(`${CONTROLLER}_fencedbrokercount`) === 1 &&
          scrape.valueOf(`${CONTROLLER}_activebrokercount`) === 2,
        "the frozen broker fenced on the controller",
      );
    } finally {
      follower.node.resume();
    }

    const recovered = await scrapeUntil(
      leader,
      (scrape) => scrape.valueOf(`${REPLICA_MANAGER}_underreplicatedpartitions`) === 0,
      "the partition fully replicated again",
    );
    // The expansion counts when the leader's AlterPartition answer comes before the metadata
    // that carries the same ISR; one that comes after is ignored, uncounted, as in Kafka's
    // Partition.handleAlterPartitionUpdate. The counter only ever grows.
    assert.ok((recovered.valueOf(`${REPLICA_MANAGER}_isrexpands_total`) ?? 0) >= expandsBefore);
    await scrapeUntil(
      controller,
      (scrape) => scrape.valueOf(`${CONTROLLER}_fencedbrokercount`) === 0,
      "the broker unfenced",
    );
  },
);
