/**
 * The single-node preset of the design document, used by `sluice start` when no configuration
 * file is given: one process that is both controller and broker, node id 1, clients on
 * 127.0.0.1:9092, the controller on 127.0.0.1:9093, data in ./data.
 */
import type { ConfigBase } from "./load-config.js";

/** The name messages use for values that come from the preset. */
export const SINGLE_NODE_PRESET_NAME = "single-node";

/** The keys the preset sets; every other key keeps its default. */
export const SINGLE_NODE_SETTINGS: Readonly<Record<string, string>> = {
  "process.roles": "broker,controller",
  "node.id": "1",
  listeners: "PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093",
  "advertised.listeners": "PLAINTEXT://127.0.0.1:9092",
  "controller.listener.names": "CONTROLLER",
  "controller.quorum.voters": "1@127.0.0.1:9093",
  "log.dirs": "./data",
};

export const SINGLE_NODE_PRESET: ConfigBase = {
  kind: "preset",
  name: SINGLE_NODE_PRESET_NAME,
  values: SINGLE_NODE_SETTINGS,
};
