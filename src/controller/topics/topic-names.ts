import { shownText } from "../../common/index.js";

/**
 * Kafka's rules for topic names: 1 to 249 characters from [a-zA-Z0-9._-], not "." or "..", and
 * no two topics that differ only by '.' against '_' (both become '_' in metric names).
 */

/** The longest topic name Kafka allows (255 less room for a partition suffix in file names). */
export const TOPIC_NAME_LENGTH_MAX = 249;

/** A topic name as an error message quotes it: at most the longest legal name. */
export function shownTopicName(name: string): string {
  return shownText(name, TOPIC_NAME_LENGTH_MAX);
}

/** Why `name` is not a legal topic name, or undefined when it is. */
export function invalidTopicNameReason(name: string): string | undefined {
  if (name.length === 0) return "a topic name cannot be empty";
  if (name === "." || name === "..") return 'a topic name cannot be "." or ".."';
  if (name.length > TOPIC_NAME_LENGTH_MAX) {
    const shown = shownTopicName(name);
    return `topic name "${shown}" is longer than ${TOPIC_NAME_LENGTH_MAX} characters`;
  }
  if (!/^[a-zA-Z0-9._-]+$/.test(name)) {
    const allowed = "ASCII letters, digits, '.', '_' and '-'";
    return `topic name "${name}" has a character other than ${allowed}`;
  }
  return undefined;
}

/** The name with '.' replaced by '_', under which colliding topics are equal. */
export function unifiedTopicName(name: string): string {
  return name.replaceAll(".", "_");
}

/** True when the name contains '.' or '_', the characters that may collide. */
export function hasCollisionCharacters(name: string): boolean {
  return name.includes(".") || name.includes("_");
}
