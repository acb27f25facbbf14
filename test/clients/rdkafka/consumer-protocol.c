/*
 * One consumer of the KIP-848 consumer group protocol on librdkafka's C API, for
 * test/clients/librdkafka-consumer-group.test.ts: `consumer-protocol BOOTSTRAP GROUP TOPIC`
 * subscribes with group.protocol=consumer, prints "read PARTITION OFFSET VALUE" for each record
 * and, after a synchronous commit of it, "committed PARTITION OFFSET VALUE" (or "uncommitted"
 * with the error), until SIGTERM, when it closes the consumer (leaving the group) and exits 0.
 * It exits 77 when this librdkafka does not know group.protocol (KIP-848 needs 2.4 or later).
 */
#include <librdkafka/rdkafka.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t is_stopping = 0;

static void on_term(int signal_number) {
  (void)signal_number;
  is_stopping = 1;
}

static int set(rd_kafka_conf_t *conf, const char *name, const char *value) {
  char error[512];
  rd_kafka_conf_res_t result = rd_kafka_conf_set(conf, name, value, error, sizeof error);
  if (result == RD_KAFKA_CONF_OK) return 0;
  fprintf(stderr, "config %s: %s\n", name, error);
  return result == RD_KAFKA_CONF_UNKNOWN ? 77 : 2;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s BOOTSTRAP GROUP TOPIC\n", argv[0]);
    return 2;
  }
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  const char *settings[][2] = {
      {"bootstrap.servers", argv[1]}, {"group.id", argv[2]},
      {"group.protocol", "consumer"}, {"auto.offset.reset", "earliest"},
      {"enable.auto.commit", "false"},
  };
  for (size_t index = 0; index < sizeof settings / sizeof settings[0]; index++) {
    int failed = set(conf, settings[index][0], settings[index][1]);
    if (failed != 0) {
      if (failed == 77) fprintf(stderr, "librdkafka %s lacks KIP-848\n", rd_kafka_version_str());
      return failed;
    }
  }
  char error[512];
  rd_kafka_t *consumer = rd_kafka_new(RD_KAFKA_CONSUMER, conf, error, sizeof error);
  if (consumer == NULL) {
    fprintf(stderr, "rd_kafka_new: %s\n", error);
    return 2;
  }
  rd_kafka_poll_set_consumer(consumer);
  rd_kafka_topic_partition_list_t *topics = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(topics, argv[3], RD_KAFKA_PARTITION_UA);
  rd_kafka_resp_err_t subscribed = rd_kafka_subscribe(consumer, topics);
  rd_kafka_topic_partition_list_destroy(topics);
  if (subscribed != RD_KAFKA_RESP_ERR_NO_ERROR) {
    fprintf(stderr, "subscribe: %s\n", rd_kafka_err2str(subscribed));
    return 2;
  }
  signal(SIGTERM, on_term);
  printf("subscribed\n");
  fflush(stdout);
  while (!is_stopping) {
    rd_kafka_message_t *message = rd_kafka_consumer_poll(consumer, 100);
    if (message == NULL) continue;
    if (message->err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      int length = (int)message->len;
      const char *value = (const char *)message->payload;
      printf("read %d %lld %.*s\n", message->partition, (long long)message->offset, length, value);
      rd_kafka_resp_err_t committed = rd_kafka_commit_message(consumer, message, 0);
      if (committed == RD_KAFKA_RESP_ERR_NO_ERROR) {
        printf("committed %d %lld %.*s\n", message->partition, (long long)message->offset,
               length, value);
      } else {
        printf("uncommitted %d %lld %s\n", message->partition, (long long)message->offset,
               rd_kafka_err2name(committed));
      }
      fflush(stdout);
    } else if (message->err != RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      fprintf(stderr, "consume: %s\n", rd_kafka_message_errstr(message));
    }
    rd_kafka_message_destroy(message);
  }
  rd_kafka_consumer_close(consumer);
  rd_kafka_destroy(consumer);
  printf("closed\n");
  fflush(stdout);
  return 0;
}
