/**
 * The regular expressions a consumer group's members subscribe with (KIP-848) and the topics
 * each resolves to. Kafka resolves them in the background at most every 10 s and when topics
 * are created; here each heartbeat resolves again whenever the topics of the metadata image
 * changed since the last resolution (the catalog's `version`), so that a topic created or
 * deleted is seen by the next heartbeat of any member.
 */
import { compileTopicRegex } from "./topic-regex.js";

/** The metadata image's topics, as the consumer groups read them. */
export interface TopicCatalog {
  /** A topic's id and partition count, if it exists. */
  topic(name: string): { readonly topicId: string; readonly partitionCount: number } | undefined;
  /** Every topic name. */
  names(): Iterable<string>;
  /** Changes whenever the set of topics may have changed; compared with `===`. */
  readonly version: unknown;
}

interface Resolved {
  readonly version: unknown;
  readonly topics: ReadonlySet<string>;
}

const NO_TOPICS: ReadonlySet<string> = new Set();

export class SubscribedRegexes {
  private readonly resolved = new Map<string, Resolved>();

  /** The topics `regex` resolved to at the last refresh (none before). */
  topicsOf(regex: string): ReadonlySet<string> {
    return this.resolved.get(regex)?.topics ?? NO_TOPICS;
  }

  /**
   * Resolves each of `regexes` not yet resolved against this catalog version, and forgets the
   * ones no member uses any more; whether the topics of a regex resolved before changed.
   * Every regex here was checked by compileTopicRegex when a member brought it.
   */
  refresh(regexes: ReadonlySet<string>, catalog: TopicCatalog): boolean {
    let hasChanged = false;
    for (const regex of [...this.resolved.keys()]) {
      if (!regexes.has(regex)) this.resolved.delete(regex);
    }
    for (const regex of regexes) {
      const previous = this.resolved.get(regex);
      if (previous?.version === catalog.version) continue;
      const topics = resolve(regex, catalog);
      // A regex first resolved here was brought by a member (whose change already counts) or
      // by a group rebuilt from the log, whose assignment already reflects it.
      if (previous !== undefined && !sameTopics(previous.topics, topics)) hasChanged = true;
      this.resolved.set(regex, { version: catalog.version, topics });
    }
    return hasChanged;
  }
}

function resolve(regex: string, catalog: TopicCatalog): ReadonlySet<string> {
  const compiled = compileTopicRegex(regex);
  if (compiled.kind === "invalid") return NO_TOPICS;
  const topics = new Set<string>();
  for (const name of catalog.names()) if (compiled.matches(name)) topics.add(name);
  return topics;
}

function sameTopics(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const name of a) if (!b.has(name)) return false;
  return true;
}
