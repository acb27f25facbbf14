import assert from "node:assert/strict";
import { test } from "node:test";
import { AclOperation, AclResourceType, EMPTY_IMAGE } from "../../metadata/index.js";
import { AuthorizerNotReadyError, NodeAuthorizer } from "./request-authorization.js";

const options = { superUsers: new Set(["User:admin"]), allowEveryoneIfNoAclFound: true };
const admin = { principalType: "User", name: "admin" };
const bob = { principalType: "User", name: "bob" };

test("before the ACLs are loaded only super users are authorized; then the ACLs decide", () => {
  let isLoaded = false;
  const authorizer = new NodeAuthorizer(
    () => EMPTY_IMAGE.security.acls,
    options,
    () => isLoaded,
  );
  const early = authorizer.forRequest(bob, "10.0.0.2");
  assert.equal(early.isSuperUser, false);
  assert.throws(
    () => early.authorize(AclOperation.READ, AclResourceType.TOPIC, "orders"),
    AuthorizerNotReadyError,
  );
  assert.throws(() => early.authorizeCluster(AclOperation.ALTER), AuthorizerNotReadyError);
  assert.throws(
    () => early.authorizeByResourceType(AclOperation.WRITE, AclResourceType.TOPIC),
    AuthorizerNotReadyError,
  );
  const superUser = authorizer.forRequest(admin, "10.0.0.1");
  assert.equal(superUser.isSuperUser, true);
  assert.equal(superUser.authorizeCluster(AclOperation.ALTER), true);

  isLoaded = true;
  const loaded = authorizer.forRequest(bob, "10.0.0.2");
  // No ACL applies and allow.everyone.if.no.acl.found is true.
  assert.equal(loaded.authorize(AclOperation.READ, AclResourceType.TOPIC, "orders"), true);
});
