// Run by scram-credentials.test.ts under Node 22 (@platformatic/kafka needs Node >= 22.22):
// creates a SCRAM-SHA-512 user with the raw AlterUserScramCredentials v0 API, as an admin
// client does (the salted password computed here, the password never sent), then describes it
// and a user that does not exist. Logs in with SASL/PLAIN. Prints one JSON line with the answers.
import { pbkdf2Sync, randomBytes } from "node:crypto";
import {
  Connection,
  alterUserScramCredentialsV0,
  describeUserScramCredentialsV0,
} from "@platformatic/kafka";

const [host, port, plainUser, plainPassword, user, password] = process.argv.slice(2);
const connection = new Connection("sluice-platformatic-scram", {
  sasl: { mechanism: "PLAIN", username: plainUser, password: plainPassword },
});
/** The answer of a call, or the answer a ResponseError carries with the codes it refused. */
async function answer(call) {
  try {
    return await call();
  } catch (error) {
    if (error.response !== undefined) return error.response;
    throw error;
  }
}
try {
  await connection.connect(host, Number(port));
  const salt = randomBytes(24);
  const iterations = 8192;
  const saltedPassword = pbkdf2Sync(password, salt, iterations, 64, "sha512");
  const altered = await answer(() =>
    alterUserScramCredentialsV0.api.async(
      connection,
      [],
      [{ name: user, mechanism: 2, iterations, salt, saltedPassword }],
    ),
  );
  const described = await answer(() =>
    describeUserScramCredentialsV0.api.async(connection, [{ name: user }, { name: "nobody" }]),
  );
  process.stdout.write(`${JSON.stringify({ altered, described })}\n`);
} finally {
  await connection.close();
}
