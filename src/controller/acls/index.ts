// The controller's ACL writes: CreateAcls and DeleteAcls as Kafka's AclControlManager.
export { aclRefusal, createAcls, deleteAcls } from "./acl-control.js";
