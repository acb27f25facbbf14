/**
 * What the `sluice transactions` subcommands share: their integer and required options, the
 * transactional ids every broker lists (ListTransactions) and the coordinator of one
 * (FindCoordinator key type 1).
 */
import { brokerId, ErrorCode } from "../common/index.js";
import { findCoordinator, listTransactions } from "../protocol/index.js";
import { CommandFailure, kafkaFailure, type ClusterSession } from "./cluster-session.js";
import type { AdminOptions } from "./admin-command.js";

const TRANSACTION_KEY_TYPE = 1;

/** The integer value of option `name`, or undefined when not given. */
export function integerOption(options: AdminOptions, name: string): number | undefined {
  const text = options.values.get(name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(value)) {
    throw new CommandFailure(`${name}: "${text}" is not an integer`);
  }
  return value;
}

/** The value of option `name`, which must be given. */
export function requiredOption(options: AdminOptions, name: string): string {
  const text = options.values.get(name);
  if (text === undefined || text === "") throw new CommandFailure(`${name} is required`);
  return text;
}

/** The comma-separated values of option `name`, or none. */
export function listOption(options: AdminOptions, name: string): string[] {
  const text = options.values.get(name);
  return text === undefined ? [] : text.split(",").map((each) => each.trim());
}

/** Every broker's ListTransactions answer for `filters`, with its id, by transactional id. */
export async function listedTransactions(
  session: ClusterSession,
  filters: { states: string[]; producerIds: number[]; durationFilter: number },
) {
  const metadata = await session.metadata([]);
  const listed = [];
  for (const broker of metadata.brokers) {
    const target = brokerId(broker.nodeId);
    const body = {
      stateFilters: filters.states,
      producerIdFilters: filters.producerIds,
      durationFilter: filters.durationFilter,
    };
    const response = await session.send(listTransactions, body, { maxVersion: 1, target });
    if (response.errorCode !== ErrorCode.NONE) throw kafkaFailure(response.errorCode);
    for (const state of response.transactionStates) listed.push({ ...state, coordinator: target });
  }
  return listed.sort((a, b) => a.transactionalId.localeCompare(b.transactionalId));
}

/** The broker coordinating `transactionalId`. */
export async function transactionCoordinatorOf(session: ClusterSession, transactionalId: string) {
  await session.metadata([]);
  const body = { key: transactionalId, keyType: TRANSACTION_KEY_TYPE };
  const response = await session.send(findCoordinator, body, { maxVersion: 3 });
  if (response.errorCode !== ErrorCode.NONE) {
    throw kafkaFailure(response.errorCode, response.errorMessage);
  }
  return brokerId(response.nodeId);
}
