/**
 * `sluice topic alter` and `sluice topic add-partitions`: a topic's configs changed with
 * IncrementalAlterConfigs (as kafka-configs.sh --alter does for a topic) and its partition count
 * raised with CreatePartitions (as kafka-topics.sh --alter --partitions does).
 */
import { createPartitions, incrementalAlterConfigs } from "../protocol/index.js";
import { EXIT, type CommandOutput } from "./command-options.js";
import { CommandFailure, type ClusterSession } from "./cluster-session.js";
import { TOPIC_RESOURCE } from "./topic-describe.js";
import {
  configPairs,
  ifExists,
  integerOption,
  requiredTopic,
  wasTolerated,
  type TopicOptions,
} from "./topic-options.js";

/** IncrementalAlterConfigs' operations. */
const SET = 0;
const DELETE = 1;

/**
 * Reads kafka-topics' `--replica-assignment`: partitions separated by commas, the broker ids of
 * each by colons ("1:2,2:3" is two partitions of two replicas).
 */
export function parseReplicaAssignment(text: string): number[][] {
  const partitions = text.split(",").map((partition) =>
    partition.split(":").map((id) => {
      const brokerId = Number(id.trim());
      if (id.trim() === "" || !Number.isSafeInteger(brokerId) || brokerId < 0) {
        throw new CommandFailure(`--replica-assignment: "${id}" is not a broker id`);
      }
      return brokerId;
    }),
  );
  for (const [index, brokers] of partitions.entries()) {
    if (new Set(brokers).size !== brokers.length) {
      throw new CommandFailure(`--replica-assignment: partition ${index} names a broker twice`);
    }
  }
  return partitions;
}

/** Alters configs (`--config`, `--delete-config`) and, with `--partitions`, the partitions. */
export async function alterTopic(
  session: ClusterSession,
  options: TopicOptions,
  io: CommandOutput,
): Promise<number> {
  const name = requiredTopic(options);
  const sets = configPairs(options).map((pair) => ({ ...pair, configOperation: SET }));
  const deletes = (options.repeated.get("--delete-config") ?? []).map((key) => ({
    name: key.trim(),
    value: null,
    configOperation: DELETE,
  }));
  const changesPartitions = options.values.has("--partitions");
  if (sets.length + deletes.length === 0 && !changesPartitions) {
    throw new CommandFailure("alter needs --config, --delete-config or --partitions");
  }
  if (changesPartitions) {
    const code = await addPartitions(session, options);
    if (code !== EXIT.ok || sets.length + deletes.length === 0) return code;
  }
  const resource = {
    resourceType: TOPIC_RESOURCE,
    resourceName: name,
    configs: [...sets, ...deletes],
  };
  const response = await session.send(
    incrementalAlterConfigs,
    { resources: [resource], validateOnly: false },
    { maxVersion: 1 },
  );
  if (wasTolerated(response.responses[0], name, ifExists(options))) return EXIT.ok;
  io.write(`Completed updating config for topic ${name}.`);
  return EXIT.ok;
}

/** Raises the topic's partition count to `--partitions`. */
export async function addPartitions(
  session: ClusterSession,
  options: TopicOptions,
): Promise<number> {
  const name = requiredTopic(options);
  if (!options.values.has("--partitions")) throw new CommandFailure("--partitions is required");
  const count = integerOption(options, "--partitions", 0);
  const assignmentText = options.values.get("--replica-assignment");
  const assignments =
    assignmentText === undefined
      ? null
      : parseReplicaAssignment(assignmentText).map((brokerIds) => ({ brokerIds }));
  const response = await session.send(
    createPartitions,
    { topics: [{ name, count, assignments }], timeoutMs: 30_000, validateOnly: false },
    { maxVersion: 3 },
  );
  wasTolerated(response.results[0], name, ifExists(options));
  return EXIT.ok;
}
