/**
 * What the topic, produce and consume commands share: the `--bootstrap-server` option, a pool of
 * connections to the cluster's brokers learnt from Metadata, and the way a refusal ends the
 * command, as Kafka's tools print it (the error's name and message, a non-zero exit).
 */
import { brokerId, ErrorCode, errorCodeInfo, errorName, isRetriable } from "../common/index.js";
import {
  ClientPool,
  describeFailure,
  type ClientPorts,
  type ClientSecurity,
  type ClientTarget,
} from "../client/index.js";
import { parseHostPort } from "../main/index.js";
import type { Address, Crypto, FileSystem } from "../ports/index.js";
import {
  metadata,
  type ApiCodec,
  type MessageInput,
  type MetadataResponse,
} from "../protocol/index.js";
import { EXIT, type CommandOutput } from "./command-options.js";
import { CommandConfigProblem, commandSecurityOf } from "./command-config.js";

export const DEFAULT_BOOTSTRAP_SERVER = "localhost:9092";

/** The waits between attempts of a step refused with a retriable error, as retry.backoff.ms. */
const RETRY_BACKOFF_MS = 100;
const RETRY_BACKOFF_MAX_MS = 1000;

/** The highest Metadata version the commands read; v12 names topics and carries topic ids. */
const METADATA_MAX_VERSION = 12;

/**
 * A refusal that ends a command: the cluster's error (by Kafka name) or a problem with the input.
 * Thrown from deep in a command and caught once, in `runAgainstCluster`, so each step can read as
 * the happy path.
 */
export class CommandFailure extends Error {
  constructor(
    message: string,
    /** The Kafka error code behind the failure, when the cluster refused. */
    readonly errorCode?: number,
  ) {
    super(message);
  }
}

/** A failure for a Kafka error code, worded as Kafka's exceptions are: `NAME: message`. */
export function kafkaFailure(errorCode: number, message?: string | null): CommandFailure {
  const text = message ?? errorCodeInfo(errorCode)?.description ?? "";
  return new CommandFailure(`${errorName(errorCode)}: ${text}`.trimEnd(), errorCode);
}

/** Reads `--bootstrap-server host:port[,host:port...]`; the first address is asked first. */
export function bootstrapAddresses(text: string | undefined): readonly Address[] {
  const addresses = (text ?? DEFAULT_BOOTSTRAP_SERVER).split(",").map((part) => {
    const parsed = parseHostPort(part);
    if (!parsed.ok) throw new CommandFailure(`--bootstrap-server: ${parsed.message}`);
    return parsed.value;
  });
  return addresses;
}

/**
 * Kafka counts an unknown topic or partition as retriable, since metadata may lag; a command names
 * its topic, so one that does not exist ends it at once rather than after the timeout.
 */
export function isWorthRetrying(errorCode: number): boolean {
  return isRetriable(errorCode) && errorCode !== ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
}

/** Connections to the brokers of one cluster, for the length of one command. */
export class ClusterSession {
  private readonly pool: ClientPool;

  constructor(
    private readonly bootstrap: readonly Address[],
    private readonly ports: ClientPorts,
    private readonly requestTimeoutMs: number,
    security?: ClientSecurity,
  ) {
    this.pool = new ClientPool(ports, { requestTimeoutMs, clientId: "sluice-cli", security });
  }

  /**
   * Sends one request to `target` (the first bootstrap address when not given) and returns the
   * response body; a request the client could not complete ends the command.
   */
  async send<Request extends object, Response extends object>(
    api: ApiCodec<Request, Response>,
    body: MessageInput<Request>,
    options: { readonly maxVersion?: number; readonly target?: ClientTarget } = {},
  ): Promise<Response> {
    const targets = options.target === undefined ? this.bootstrap : [options.target];
    let problem = "";
    for (const target of targets) {
      const versions = options.maxVersion === undefined ? {} : { maxVersion: options.maxVersion };
      const result = await this.pool.send(target, api, body, versions);
      if (result.kind === "response") return result.body;
      problem = describeFailure(result);
      // A bootstrap address that does not answer is skipped; a broker named by id is not.
      if (result.kind !== "disconnected" && result.kind !== "timeout") {
        throw new CommandFailure(`the request failed: ${problem}`);
      }
    }
    const hint =
      options.target === undefined
        ? "; is a broker listening at --bootstrap-server?"
        : typeof options.target === "number"
          ? `; broker ${options.target} did not answer`
          : "";
    throw new CommandFailure(`the request failed: ${problem}${hint}`);
  }

  /** Metadata of `topics` (every topic when null); learns where each broker listens. */
  async metadata(topics: readonly string[] | null): Promise<MetadataResponse> {
    const body = {
      topics: topics === null ? null : topics.map((name) => ({ name })),
      allowAutoTopicCreation: false,
    };
    const response = await this.send(metadata, body, { maxVersion: METADATA_MAX_VERSION });
    for (const broker of response.brokers) {
      this.pool.setNodeAddress(brokerId(broker.nodeId), { host: broker.host, port: broker.port });
    }
    return response;
  }

  /**
   * Runs `step` again while it fails with a retriable Kafka error (a coordinator or leader not
   * elected yet, a leader that moved), with growing waits, until the request timeout has passed
   * since the first attempt; then the last failure ends the command.
   */
  async retrying<T>(step: () => Promise<T>): Promise<T> {
    const deadlineMs = this.ports.clock.monotonicMs() + this.requestTimeoutMs;
    let backoffMs = RETRY_BACKOFF_MS;
    for (;;) {
      try {
        return await step();
      } catch (error) {
        const code = error instanceof CommandFailure ? error.errorCode : undefined;
        const isLate = this.ports.clock.monotonicMs() + backoffMs > deadlineMs;
        if (code === undefined || !isWorthRetrying(code) || isLate) throw error;
      }
      await new Promise<void>((resolve) => this.ports.timers.schedule(backoffMs, resolve));
      backoffMs = Math.min(backoffMs * 2, RETRY_BACKOFF_MAX_MS);
    }
  }

  close(): void {
    this.pool.close();
  }
}

/** The output and ports of a command that talks to a cluster; files for `--command-config`. */
export interface ClusterCommandIo extends CommandOutput, ClientPorts {
  readonly fileSystem?: FileSystem | undefined;
  readonly crypto?: Crypto | undefined;
}

/**
 * Runs `action` with a session to the cluster, secured as the `--command-config` file says when
 * one is given (command-config.ts), and turns a `CommandFailure` into Kafka's way of reporting
 * it: `prefix` and the message on one line, exit code 1.
 */
export async function runAgainstCluster(
  bootstrapText: string | undefined,
  io: ClusterCommandIo,
  options: {
    readonly prefix: string;
    readonly requestTimeoutMs: number;
    readonly commandConfig?: string | undefined;
  },
  action: (session: ClusterSession) => Promise<number>,
): Promise<number> {
  let session: ClusterSession | undefined;
  try {
    const bootstrap = bootstrapAddresses(bootstrapText);
    const security = await securityOf(io, options.commandConfig);
    session = new ClusterSession(bootstrap, io, options.requestTimeoutMs, security);
    return await action(session);
  } catch (error) {
    if (!(error instanceof CommandFailure)) throw error;
    io.error(`${options.prefix}${error.message}`);
    return EXIT.failed;
  } finally {
    session?.close();
  }
}

async function securityOf(
  io: ClusterCommandIo,
  commandConfig: string | undefined,
): Promise<ClientSecurity | undefined> {
  if (commandConfig === undefined) return undefined;
  const { fileSystem, crypto } = io;
  if (fileSystem === undefined) throw new CommandFailure("--command-config: no files to read");
  try {
    return await commandSecurityOf({ fileSystem, crypto }, commandConfig);
  } catch (error) {
    if (error instanceof CommandConfigProblem) throw new CommandFailure(error.message);
    throw error;
  }
}
