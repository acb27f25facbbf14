// Run by acl-platformatic.test.ts under Node 22 (@platformatic/kafka needs Node >= 22.22): as
// bob over SASL/PLAIN, lists the topics (Metadata) and produces one record with acks=-1 to each
// topic named. Prints one JSON line: the topics listed, and per topic "NONE" or the client's
// error, flattened (its messages and Kafka error names).
import { Admin, Producer, stringSerializers } from "@platformatic/kafka";

const [bootstrap, ...topics] = process.argv.slice(2);
const security = { sasl: { mechanism: "PLAIN", username: "bob", password: "bob-secret" } };
const options = { ...security, bootstrapBrokers: [bootstrap], retries: 0 };

/** The messages and error names of `error` and of the errors it wraps. */
function flattened(error, into = []) {
  if (error === undefined || error === null) return into;
  into.push(String(error.message ?? error), String(error.apiId ?? error.code ?? ""));
  for (const inner of error.errors ?? []) flattened(inner, into);
  return into;
}

const admin = new Admin({ ...options, clientId: "sluice-platformatic-acl-admin" });
const producer = new Producer({
  ...options,
  clientId: "sluice-platformatic-acl-producer",
  serializers: stringSerializers,
  autocreateTopics: false,
});
try {
  const listed = [...(await admin.listTopics())].sort();
  const produced = {};
  for (const topic of topics) {
    try {
      await producer.send({ messages: [{ topic, value: "platformatic" }], acks: -1 });
      produced[topic] = "NONE";
    } catch (error) {
      produced[topic] = flattened(error).join(" ");
    }
  }
  process.stdout.write(`${JSON.stringify({ listed, produced })}\n`);
} finally {
  await producer.close();
  await admin.close();
}
