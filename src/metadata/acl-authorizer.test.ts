import assert from "node:assert/strict";
import { test } from "node:test";
import type { AccessControlEntryRecord } from "../protocol/index.js";
import { AclAuthorizer } from "./acl-authorizer.js";
import { aclFilterMatches } from "./acl-filter.js";
import {
  AclOperation,
  AclPatternType,
  AclPermissionType,
  AclResourceType,
} from "../protocol/index.js";

const { TOPIC, GROUP, CLUSTER } = AclResourceType;
const { LITERAL, PREFIXED } = AclPatternType;
const { ALLOW, DENY } = AclPermissionType;

function acl(fields: Partial<AccessControlEntryRecord>): AccessControlEntryRecord {
  return {
    id: "AAAAAAAAAAAAAAAAAAAAAA",
    resourceType: TOPIC,
    resourceName: "orders",
    patternType: LITERAL,
    principal: "User:alice",
    host: "*",
    operation: AclOperation.READ,
    permissionType: ALLOW,
    ...fields,
  };
}

function authorizer(acls: AccessControlEntryRecord[], allowEveryoneIfNoAclFound = false) {
  return new AclAuthorizer(acls, {
    superUsers: new Set(["User:admin"]),
    allowEveryoneIfNoAclFound,
  });
}

const alice = { principal: "User:alice", host: "10.0.0.1" };
const bob = { principal: "User:bob", host: "10.0.0.2" };

test("a literal ALLOW grants its operation on its resource only", () => {
  const auth = authorizer([acl({})]);
  assert.equal(auth.authorize(alice, AclOperation.READ, TOPIC, "orders"), true);
  assert.equal(auth.authorize(alice, AclOperation.WRITE, TOPIC, "orders"), false);
  assert.equal(auth.authorize(alice, AclOperation.READ, TOPIC, "orders2"), false);
  assert.equal(auth.authorize(alice, AclOperation.READ, GROUP, "orders"), false);
  assert.equal(auth.authorize(bob, AclOperation.READ, TOPIC, "orders"), false);
});

test("READ, WRITE, DELETE and ALTER imply DESCRIBE; ALTER_CONFIGS implies DESCRIBE_CONFIGS", () => {
  for (const operation of [AclOperation.READ, AclOperation.WRITE, AclOperation.ALTER]) {
    const auth = authorizer([acl({ operation })]);
    assert.equal(auth.authorize(alice, AclOperation.DESCRIBE, TOPIC, "orders"), true);
    assert.equal(auth.authorize(alice, AclOperation.DESCRIBE_CONFIGS, TOPIC, "orders"), false);
  }
  const configs = authorizer([acl({ operation: AclOperation.ALTER_CONFIGS })]);
  assert.equal(configs.authorize(alice, AclOperation.DESCRIBE_CONFIGS, TOPIC, "orders"), true);
  assert.equal(configs.authorize(alice, AclOperation.DESCRIBE, TOPIC, "orders"), false);
  const create = authorizer([acl({ operation: AclOperation.CREATE })]);
  assert.equal(create.authorize(alice, AclOperation.DESCRIBE, TOPIC, "orders"), false);
});

test("ALL grants every operation, and a DENY of ALL refuses every one", () => {
  const auth = authorizer([acl({ operation: AclOperation.ALL })]);
  assert.equal(auth.authorize(alice, AclOperation.DELETE, TOPIC, "orders"), true);
  const denied = authorizer([
    acl({ operation: AclOperation.ALL }),
    acl({ operation: AclOperation.ALL, permissionType: DENY }),
  ]);
  assert.equal(denied.authorize(alice, AclOperation.READ, TOPIC, "orders"), false);
});

test("DENY wins over ALLOW, also from a wildcard or a prefix, but implies nothing", () => {
  const auth = authorizer([
    acl({ resourceName: "*", principal: "User:*" }),
    acl({ resourceName: "pay", patternType: PREFIXED, permissionType: DENY }),
  ]);
  assert.equal(auth.authorize(alice, AclOperation.READ, TOPIC, "orders"), true);
  assert.equal(auth.authorize(bob, AclOperation.READ, TOPIC, "payments"), true);
  assert.equal(auth.authorize(alice, AclOperation.READ, TOPIC, "payments"), false);
  const describeDenied = authorizer([
    acl({}),
    acl({ operation: AclOperation.DESCRIBE, permissionType: DENY }),
  ]);
  assert.equal(describeDenied.authorize(alice, AclOperation.READ, TOPIC, "orders"), true);
  assert.equal(describeDenied.authorize(alice, AclOperation.DESCRIBE, TOPIC, "orders"), false);
});

test("a prefixed ACL covers the names that start with it", () => {
  const auth = authorizer([acl({ resourceName: "app-", patternType: PREFIXED })]);
  assert.equal(auth.authorize(alice, AclOperation.READ, TOPIC, "app-orders"), true);
  assert.equal(auth.authorize(alice, AclOperation.READ, TOPIC, "app-"), true);
  assert.equal(auth.authorize(alice, AclOperation.READ, TOPIC, "app"), false);
  assert.equal(auth.authorize(alice, AclOperation.READ, TOPIC, "other"), false);
});

test("an ACL's host must be the client's or *", () => {
  const auth = authorizer([acl({ host: "10.0.0.1" })]);
  assert.equal(auth.authorize(alice, AclOperation.READ, TOPIC, "orders"), true);
  const elsewhere = { principal: "User:alice", host: "10.0.0.9" };
  assert.equal(auth.authorize(elsewhere, AclOperation.READ, TOPIC, "orders"), false);
});

test("super users may do everything; others fall back to allow.everyone.if.no.acl.found", () => {
  const auth = authorizer([acl({})]);
  const admin = { principal: "User:admin", host: "10.0.0.3" };
  assert.equal(auth.authorize(admin, AclOperation.DELETE, TOPIC, "orders"), true);
  assert.equal(auth.authorize(alice, AclOperation.CLUSTER_ACTION, CLUSTER, "kafka-cluster"), false);
  const open = authorizer([acl({})], true);
  assert.equal(open.authorize(alice, AclOperation.CLUSTER_ACTION, CLUSTER, "kafka-cluster"), true);
  assert.equal(open.authorize(bob, AclOperation.READ, TOPIC, "other"), true);
  // The resource has ACLs, none for bob: the fallback does not apply.
  assert.equal(open.authorize(bob, AclOperation.READ, TOPIC, "orders"), false);
});

test("authorizeByResourceType finds an ALLOW that no DENY covers", () => {
  const write = { operation: AclOperation.WRITE };
  assert.equal(
    authorizer([acl(write)]).authorizeByResourceType(alice, AclOperation.WRITE, TOPIC),
    true,
  );
  assert.equal(authorizer([]).authorizeByResourceType(alice, AclOperation.WRITE, TOPIC), false);
  const covered = authorizer([
    acl({ ...write, resourceName: "orders" }),
    acl({ ...write, resourceName: "ord", patternType: PREFIXED, permissionType: DENY }),
  ]);
  assert.equal(covered.authorizeByResourceType(alice, AclOperation.WRITE, TOPIC), false);
  const wildcardDeny = authorizer([
    acl({ ...write, resourceName: "a", patternType: PREFIXED }),
    acl({ ...write, resourceName: "*", permissionType: DENY }),
  ]);
  assert.equal(wildcardDeny.authorizeByResourceType(alice, AclOperation.WRITE, TOPIC), false);
});

test("a MATCH filter selects the ACLs that apply to a name; ANY selects every pattern", () => {
  const any = {
    resourceType: AclResourceType.ANY,
    principal: null,
    host: null,
    operation: AclOperation.ANY,
    permissionType: AclPermissionType.ANY,
  };
  const prefixed = acl({ resourceName: "app-", patternType: PREFIXED });
  const wildcard = acl({ resourceName: "*" });
  const match = { ...any, resourceName: "app-orders", patternType: AclPatternType.MATCH };
  assert.equal(aclFilterMatches(match, prefixed), true);
  assert.equal(aclFilterMatches(match, wildcard), true);
  assert.equal(aclFilterMatches(match, acl({})), false);
  const anyPattern = { ...any, resourceName: "app-", patternType: AclPatternType.ANY };
  assert.equal(aclFilterMatches(anyPattern, prefixed), true);
  assert.equal(aclFilterMatches(anyPattern, wildcard), false);
  const literal = { ...any, resourceName: null, patternType: LITERAL, principal: "User:bob" };
  assert.equal(aclFilterMatches(literal, acl({})), false);
});
