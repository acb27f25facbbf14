/**
 * Configuration keys of a node's identity and network: roles, node id, the controller quorum,
 * listeners, request limits and Sluice's HTTP endpoint. Defaults are Kafka's.
 */
import type { ConfigDefinition } from "./config-types.js";
import { connectionOverrides } from "./connection-overrides.js";
import {
  atLeast,
  hostPort,
  hostPortList,
  listOf,
  listenerList,
  notZero,
  protocolMap,
  voterList,
} from "./validators.js";

/** The keys of roles, quorum and listeners. */
export const clusterDefinitions: readonly ConfigDefinition[] = [
  {
    name: "process.roles",
    type: "list",
    defaultValue: [],
    validator: listOf(["broker", "controller"]),
    importance: "high",
    description: "The roles this node plays: broker, controller, or both (combined mode).",
  },
  {
    name: "node.id",
    type: "int",
    defaultValue: -1,
    validator: atLeast(-1),
    importance: "high",
    description:
      "This node's id, shared by its roles; required for controllers, and a broker without one " +
      "is given an id by the controller when it first registers.",
  },
  {
    name: "controller.quorum.voters",
    type: "list",
    defaultValue: [],
    validator: voterList,
    importance: "high",
    description: "The static controller quorum as id@host:port entries, one per voter.",
  },
  {
    name: "controller.quorum.bootstrap.servers",
    type: "list",
    defaultValue: [],
    validator: hostPortList,
    importance: "high",
    description: "Controller addresses (host:port) used to discover a dynamic quorum (KIP-853).",
  },
  {
    name: "controller.listener.names",
    type: "list",
    defaultValue: [],
    importance: "high",
    description:
      "Names of the listeners the controller serves on; brokers use the first to reach it.",
  },
  {
    name: "listeners",
    type: "list",
    defaultValue: ["PLAINTEXT://:9092"],
    validator: listenerList,
    importance: "high",
    description:
      "The sockets to listen on as NAME://host:port; an empty host binds every interface.",
  },
  {
    name: "advertised.listeners",
    type: "list",
    defaultValue: null,
    validator: listenerList,
    importance: "high",
    description: "The addresses published to clients and other nodes; defaults to listeners.",
  },
  {
    name: "listener.security.protocol.map",
    type: "list",
    defaultValue: [
      "PLAINTEXT:PLAINTEXT",
      "SSL:SSL",
      "SASL_PLAINTEXT:SASL_PLAINTEXT",
      "SASL_SSL:SASL_SSL",
    ],
    validator: protocolMap,
    importance: "low",
    description: "The security protocol of each listener name, as NAME:PROTOCOL entries.",
  },
  {
    name: "inter.broker.listener.name",
    type: "string",
    defaultValue: null,
    importance: "medium",
    description:
      "The listener brokers use to reach each other; defaults to the listener named after " +
      "security.inter.broker.protocol (PLAINTEXT).",
  },
  {
    name: "socket.request.max.bytes",
    type: "int",
    defaultValue: 104_857_600,
    validator: atLeast(1),
    importance: "high",
    description: "The largest request frame accepted; a larger one closes the connection.",
  },
  {
    name: "connections.max.idle.ms",
    type: "long",
    defaultValue: 600_000,
    validator: notZero(),
    importance: "medium",
    description: "How long a connection may stay silent before it is closed; -1: never.",
  },
  {
    name: "queued.max.requests",
    type: "int",
    defaultValue: 500,
    validator: atLeast(1),
    importance: "high",
    description: "Requests in flight at which connections stop reading; idle ones take one.",
  },
  {
    name: "queued.max.request.bytes",
    type: "long",
    defaultValue: -1,
    importance: "medium",
    description:
      "Bytes of requests being read or queued at which connections stop reading; -1: no bound.",
  },
  {
    name: "max.connections",
    type: "int",
    defaultValue: 2_147_483_647,
    validator: atLeast(0),
    importance: "medium",
    description: "Open connections per server (client or controller); one more is closed.",
  },
  {
    name: "max.connections.per.ip",
    type: "int",
    defaultValue: 2_147_483_647,
    validator: atLeast(0),
    importance: "medium",
    description: "Open connections from one host per server; one more is closed at once.",
  },
  {
    name: "max.connections.per.ip.overrides",
    type: "string",
    defaultValue: "",
    validator: connectionOverrides,
    importance: "medium",
    description: "Per-host exceptions to max.connections.per.ip, as ip:count entries.",
  },
  {
    name: "message.max.bytes",
    type: "int",
    defaultValue: 1_048_588,
    validator: atLeast(0),
    importance: "high",
    description: "The largest record batch a topic accepts, after compression.",
  },
  {
    name: "sluice.http.listener",
    type: "string",
    defaultValue: "127.0.0.1:9644",
    validator: hostPort,
    importance: "medium",
    isSluiceSpecific: true,
    description: "Sluice only: host:port of the HTTP endpoint serving metrics and health.",
  },
  {
    name: "sluice.metrics.partition.level.enable",
    type: "boolean",
    defaultValue: true,
    importance: "low",
    isSluiceSpecific: true,
    description:
      "Sluice only: whether /metrics has the families with a series per partition (Kafka's " +
      "kafka.log Log gauges, replication and consumer lag per partition); per-topic and total " +
      "families stay. Turn off to bound the series on brokers with many partitions.",
  },
];
