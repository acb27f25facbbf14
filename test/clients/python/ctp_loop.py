"""A consume-transform-produce loop on librdkafka through confluent-kafka-python that survives
broker failures: each transaction carries the records read (upper-cased, same key) and the
consumer's offsets. An abortable error aborts and rewinds the consumer to its committed
offsets; a fatal one (the producer fenced) starts a new producer with the same transactional
id; a retriable commit is retried. Prints `{"committed": N}` after each commit, and a final
`{"done": ...}` once the group's committed offsets cover COUNT input records.

Usage: ctp_loop.py BOOTSTRAP INPUT OUTPUT COUNT PARTITIONS."""
import json
import sys
import time

from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition, OFFSET_BEGINNING

bootstrap, source, sink = sys.argv[1], sys.argv[2], sys.argv[3]
count, partitions = int(sys.argv[4]), int(sys.argv[5])
DEADLINE = time.monotonic() + 240
stats = {"transactions": 0, "aborts": 0, "newProducers": 0, "retriedCommits": 0}


def say(value):
    print(json.dumps(value), flush=True)


def new_producer():
    while True:
        producer = Producer({
            "bootstrap.servers": bootstrap,
            "transactional.id": "python-ctp-chaos",
            "enable.idempotence": True,
            "transaction.timeout.ms": 20000,
        })
        try:
            producer.init_transactions(20)
            return producer
        except KafkaException:
            if time.monotonic() > DEADLINE:
                raise
            time.sleep(0.2)


loop = Consumer({
    "bootstrap.servers": bootstrap,
    "group.id": "python-ctp-chaos",
    "isolation.level": "read_committed",
    "auto.offset.reset": "earliest",
    "enable.auto.commit": False,
})
loop.subscribe([source])
producer = new_producer()
inputs = [TopicPartition(source, index) for index in range(partitions)]


def committed_total():
    try:
        found = loop.committed(inputs, timeout=5)
    except KafkaException:
        return -1
    return sum(max(each.offset, 0) for each in found)


def rewind():
    try:
        for each in loop.committed(loop.assignment(), timeout=10):
            offset = each.offset if each.offset >= 0 else OFFSET_BEGINNING
            loop.seek(TopicPartition(each.topic, each.partition, offset))
    except KafkaException:
        pass


def commit_with_retries():
    for _ in range(20):
        try:
            producer.commit_transaction(20)
            return
        except KafkaException as error:
            if not error.args[0].retriable():
                raise
            stats["retriedCommits"] += 1
    raise RuntimeError("the commit did not succeed after 20 retries")


total = 0
while time.monotonic() < DEADLINE:
    batch = [m for m in loop.consume(num_messages=5, timeout=0.5) if m.error() is None]
    if not batch:
        total = committed_total()
        if total >= count:
            break
        continue
    try:
        producer.begin_transaction()
        for message in batch:
            producer.produce(sink, key=message.key(), value=message.value().upper())
        positions = loop.position(loop.assignment())
        producer.send_offsets_to_transaction(positions, loop.consumer_group_metadata(), 20)
        commit_with_retries()
        stats["transactions"] += 1
        say({"committed": stats["transactions"]})
        # Paces the loop, so that the faults the test injects fall between transactions.
        time.sleep(0.02)
    except (KafkaException, RuntimeError) as failure:
        error = failure.args[0] if isinstance(failure, KafkaException) else None
        if error is not None and error.txn_requires_abort():
            try:
                producer.abort_transaction(20)
            except KafkaException:
                producer = new_producer()
                stats["newProducers"] += 1
            stats["aborts"] += 1
        else:
            producer = new_producer()
            stats["newProducers"] += 1
        rewind()
loop.close()
say({"done": total, **stats})
