// Run by test/cluster/producers.ts under Node 22 (@platformatic/kafka needs Node >= 22.22):
// writes unique values one at a time to one partition with acks=-1 and no retries, printing a
// JSON line for each value sent ({"sent"}) and each acknowledged ({"value","offset"}), until its
// standard input closes.
import { Producer, stringSerializers } from "@platformatic/kafka";

const [bootstrap, topic, partitionText] = process.argv.slice(2);
const partition = Number(partitionText);
let isStopped = false;
process.stdin.on("end", () => (isStopped = true));
process.stdin.resume();

const producer = new Producer({
  clientId: "fault-test-platformatic",
  bootstrapBrokers: bootstrap.split(","),
  serializers: stringSerializers,
  idempotent: false,
  retries: 0,
  timeout: 5000,
});
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
try {
  for (let index = 0; !isStopped; index++) {
    const value = `platformatic-${index}`;
    process.stdout.write(`${JSON.stringify({ sent: value })}\n`);
    try {
      const result = await producer.send({ messages: [{ topic, partition, value }], acks: -1 });
      const offset = result.offsets?.[0]?.offset;
      if (offset !== undefined) {
        process.stdout.write(`${JSON.stringify({ value, offset: Number(offset) })}\n`);
      }
    } catch {
      await sleep(100);
    }
  }
} finally {
  await producer.close();
}
