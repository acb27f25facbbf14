"""A consume-transform-produce loop on librdkafka through confluent-kafka-python: reads the
input topic with read_committed, writes each record upper-cased to the output topic in a
transaction that also commits the consumer's offsets (send_offsets_to_transaction), then
aborts one more transaction, and reads the output back with both isolation levels.

Usage: transactions.py BOOTSTRAP INPUT OUTPUT COUNT. Prints one JSON object."""
import json
import sys
import time

from confluent_kafka import Consumer, Producer, TopicPartition

bootstrap, source, sink, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
DEADLINE = time.monotonic() + 60


def consumer(group, isolation):
    return Consumer({
        "bootstrap.servers": bootstrap,
        "group.id": group,
        "isolation.level": isolation,
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
    })


def read_all(topic, isolation, expected):
    reader = consumer(f"reader-{isolation}", isolation)
    reader.subscribe([topic])
    values = []
    # Reads until `expected` records came and then one more second, to see any extra.
    quiet_until = None
    while time.monotonic() < DEADLINE:
        message = reader.poll(0.2)
        if message is not None and message.error() is None:
            values.append(message.value().decode())
        if len(values) >= expected and quiet_until is None:
            quiet_until = time.monotonic() + 1
        if quiet_until is not None and time.monotonic() > quiet_until:
            break
    reader.close()
    return values


producer = Producer({
    "bootstrap.servers": bootstrap,
    "transactional.id": "python-ctp",
    "enable.idempotence": True,
})
producer.init_transactions(30)
loop = consumer("python-ctp-group", "read_committed")
loop.subscribe([source])
transformed = 0
transactions = 0
while transformed < count and time.monotonic() < DEADLINE:
    batch = loop.consume(num_messages=7, timeout=0.5)
    batch = [message for message in batch if message.error() is None]
    if not batch:
        continue
    producer.begin_transaction()
    for message in batch:
        producer.produce(sink, value=message.value().decode().upper().encode())
    positions = loop.position(loop.assignment())
    producer.send_offsets_to_transaction(positions, loop.consumer_group_metadata(), 30)
    producer.commit_transaction(30)
    transformed += len(batch)
    transactions += 1
committed = loop.committed([TopicPartition(source, 0)], timeout=10)
loop.close()

producer.begin_transaction()
for index in range(5):
    producer.produce(sink, value=f"aborted-{index}".encode())
producer.flush(30)
producer.abort_transaction(30)

print(json.dumps({
    "transformed": transformed,
    "transactions": transactions,
    "committedOffset": committed[0].offset,
    "readCommitted": read_all(sink, "read_committed", count),
    "readUncommitted": read_all(sink, "read_uncommitted", count + 5),
}))
