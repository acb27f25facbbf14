/**
 * `sluice configs describe | alter --entity-type users`: SCRAM credentials as Kafka's
 * kafka-configs.sh manages them with `--bootstrap-server` (KIP-554). Alter takes
 * `--add-config 'SCRAM-SHA-256=[iterations=8192,password=secret],SCRAM-SHA-512=[password=x]'`
 * (4096 iterations unless given) and `--delete-config SCRAM-SHA-512`; the salted password is
 * computed here from a random salt, so the password never leaves the command. The controller
 * takes one change per user in a request, so each mechanism's change is one
 * AlterUserScramCredentials, in order: deletions, then upsertions. Describe lists each user's
 * mechanisms and iteration counts (DescribeUserScramCredentials); a user without credentials is
 * left out.
 */
import { ErrorCode } from "../common/index.js";
import { SCRAM_HASHES, SCRAM_ITERATIONS_MIN } from "../controller/index.js";
import type { Crypto, Random } from "../ports/index.js";
import { alterUserScramCredentials, describeUserScramCredentials } from "../protocol/index.js";
import { EXIT, type CommandOutput } from "./command-options.js";
import { CommandFailure, kafkaFailure, type ClusterSession } from "./cluster-session.js";
import { isJson, type AdminOptions } from "./admin-command.js";
import { parseAddConfig } from "./configs-entity.js";

/** Kafka's SCRAM mechanism names and their type ids. */
const MECHANISMS: ReadonlyMap<string, number> = new Map([
  ["SCRAM-SHA-256", 1],
  ["SCRAM-SHA-512", 2],
]);
const CREDENTIAL = /^(?:iterations=(-?[0-9]*),)?password=(.*)$/s;
const SALT_BYTES = 32;

/** What alter computes a salted password with. */
export interface ScramPorts {
  readonly crypto?: Crypto | undefined;
  readonly random: Random;
}

function mechanismName(type: number): string {
  return [...MECHANISMS].find(([, id]) => id === type)?.[0] ?? `mechanism ${type}`;
}

export async function describeUserCredentials(
  session: ClusterSession,
  options: AdminOptions,
  io: CommandOutput,
): Promise<number> {
  const name = options.values.get("--entity-name");
  if (options.booleans.has("--entity-default")) return EXIT.ok;
  const users = name === undefined ? null : [{ name }];
  const response = await session.send(describeUserScramCredentials, { users });
  if (response.errorCode !== ErrorCode.NONE) {
    throw kafkaFailure(response.errorCode, response.errorMessage);
  }
  const found = response.results.filter(
    (result) => result.errorCode !== ErrorCode.RESOURCE_NOT_FOUND,
  );
  if (isJson(options)) {
    const described = found.map((result) => ({
      user: result.user,
      errorCode: result.errorCode,
      credentials: result.credentialInfos.map(({ mechanism, iterations }) => ({
        mechanism: mechanismName(mechanism),
        iterations,
      })),
    }));
    io.write(JSON.stringify(described, null, 2));
    return EXIT.ok;
  }
  for (const result of found) {
    const who = `user-principal '${result.user}'`;
    if (result.errorCode !== ErrorCode.NONE) {
      const refusal = kafkaFailure(result.errorCode, result.errorMessage).message;
      io.write(`Error retrieving SCRAM credential configs for ${who}: ${refusal}`);
      continue;
    }
    const text = result.credentialInfos
      .map(({ mechanism, iterations }) => `${mechanismName(mechanism)}=iterations=${iterations}`)
      .join(", ");
    io.write(`SCRAM credential configs for ${who} are ${text}`);
  }
  return EXIT.ok;
}

export async function alterUserCredentials(
  session: ClusterSession,
  options: AdminOptions,
  io: CommandOutput,
  ports: ScramPorts,
): Promise<number> {
  if (options.booleans.has("--entity-default")) {
    throw new CommandFailure(
      "The use of --entity-default is not allowed with User SCRAM Credentials",
    );
  }
  const user = options.values.get("--entity-name");
  if (user === undefined) throw new CommandFailure("--entity-name must be specified for alter");
  const addText = options.values.get("--add-config");
  const added = addText === undefined ? [] : parseAddConfig(addText);
  const deleteText = options.values.get("--delete-config");
  const deleted = deleteText === undefined ? [] : deleteText.split(",").map((key) => key.trim());
  if (added.length + deleted.length === 0) {
    throw new CommandFailure("alter needs --add-config K=V,... or --delete-config K,...");
  }
  const unknown = [...added.map((pair) => pair.name), ...deleted].filter(
    (key) => !MECHANISMS.has(key),
  );
  if (unknown.length > 0) {
    throw new CommandFailure(
      "Only SCRAM credential configs (SCRAM-SHA-256, SCRAM-SHA-512) can be altered for " +
        `'users'. Unexpected config names: ${unknown.join(", ")}`,
    );
  }
  const deletions = deleted.map((key) => ({ name: user, mechanism: MECHANISMS.get(key) ?? 0 }));
  const upsertions = added.map(({ name, value }) => upsertionOf(user, name, value, ports));
  // The controller takes one change per user in a request (DUPLICATE_RESOURCE for a second,
  // as Kafka's KRaft controller), so each mechanism's change is a request of its own.
  const changes = [
    ...deletions.map((deletion) => ({ deletions: [deletion], upsertions: [] })),
    ...upsertions.map((upsertion) => ({ deletions: [], upsertions: [upsertion] })),
  ];
  for (const change of changes) {
    const response = await session.send(alterUserScramCredentials, change);
    const refused = response.results.find((result) => result.errorCode !== ErrorCode.NONE);
    if (refused !== undefined) throw kafkaFailure(refused.errorCode, refused.errorMessage);
  }
  io.write(`Completed updating config for user ${user}.`);
  return EXIT.ok;
}

/** The upsertion of `mechanism=[iterations=N,password=P]`, as Kafka's ConfigCommand reads it. */
function upsertionOf(user: string, mechanism: string, value: string, ports: ScramPorts) {
  const match = CREDENTIAL.exec(value);
  if (match === null) {
    throw new CommandFailure(`Invalid credential property ${mechanism}=${value}`);
  }
  const iterationsText = match[1];
  const iterations =
    iterationsText === undefined || iterationsText === "-1" || iterationsText === ""
      ? SCRAM_ITERATIONS_MIN
      : Number(iterationsText);
  if (iterations < SCRAM_ITERATIONS_MIN) {
    throw new CommandFailure(
      `Iterations ${iterations} is less than the minimum ${SCRAM_ITERATIONS_MIN} required ` +
        `for ${mechanism}`,
    );
  }
  const type = MECHANISMS.get(mechanism) ?? 0;
  const hash = SCRAM_HASHES.get(type);
  if (ports.crypto === undefined || hash === undefined) {
    throw new CommandFailure("this command cannot compute SCRAM credentials");
  }
  const salt = ports.random.fill(new Uint8Array(SALT_BYTES));
  const password = new TextEncoder().encode(match[2] ?? "");
  const saltedPassword = ports.crypto.pbkdf2(hash, password, salt, iterations);
  return { name: user, mechanism: type, iterations, salt, saltedPassword };
}
