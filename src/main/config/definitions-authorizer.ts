/**
 * The authorizer's keys, named and defaulted as Kafka's: `authorizer.class.name` turns ACL
 * checks on (Kafka's StandardAuthorizer is the one Sluice serves), `super.users` and
 * `allow.everyone.if.no.acl.found` are that authorizer's own settings.
 */
import type { ConfigDefinition } from "./config-types.js";
import { oneOf } from "./validators.js";

/** The authorizer a KRaft cluster of Kafka names; the only one Sluice serves. */
export const STANDARD_AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer";

export const authorizerDefinitions: readonly ConfigDefinition[] = [
  {
    name: "authorizer.class.name",
    type: "string",
    defaultValue: "",
    validator: oneOf(["", STANDARD_AUTHORIZER]),
    importance: "low",
    description:
      "The authorizer that checks each request against the ACLs in the metadata log: " +
      `${STANDARD_AUTHORIZER}, or empty for none (every principal may do everything, and the ` +
      "ACL APIs answer SECURITY_DISABLED).",
  },
  {
    name: "super.users",
    type: "string",
    defaultValue: "",
    importance: "low",
    description:
      "Principals that the authorizer allows everything, separated by semicolons " +
      "(User:admin;User:broker). The nodes' own principals on the inter-broker and controller " +
      "listeners belong here.",
  },
  {
    name: "allow.everyone.if.no.acl.found",
    type: "boolean",
    defaultValue: false,
    importance: "low",
    description:
      "Whether the authorizer allows a request on a resource that no ACL names at all " +
      "(a resource with ACLs, none of them the principal's, stays refused).",
  },
];

/** The authorizer's settings, or undefined when `authorizer.class.name` is empty. */
export interface AuthorizerSettings {
  readonly superUsers: ReadonlySet<string>;
  readonly allowEveryoneIfNoAclFound: boolean;
}

/** Kafka's StandardAuthorizer.getConfiguredSuperUsers: `;`-separated, trimmed, none empty. */
export function superUsersOf(text: string): ReadonlySet<string> {
  const users = text
    .split(";")
    .map((user) => user.trim())
    .filter((user) => user !== "");
  return new Set(users);
}
