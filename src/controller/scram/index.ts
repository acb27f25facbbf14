// SCRAM credentials: AlterUserScramCredentials' decisions and the keys a credential stores.
export {
  SCRAM_HASHES,
  SCRAM_ITERATIONS_MAX,
  SCRAM_ITERATIONS_MIN,
  alterUserScramCredentials,
  scramKeysOf,
  type ScramKeys,
} from "./alter-scram-credentials.js";
export { describeUserScramCredentials } from "./describe-scram-credentials.js";
