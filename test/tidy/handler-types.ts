/**
 * The rule that keeps requests typed from the router to the handler (STYLE.md rule 14): in the
 * handler folders no cast hides a request or response from the compiler.
 */
import type { SourceFacts } from "./analyse.js";
import type { CastFact } from "./casts.js";
import type { Offence, RuleName } from "./offence.js";
import { isTestFile } from "./paths.js";
import { handlerFolders, typedMessageExceptions } from "./rules.js";

/** True for code that handles requests: the handler folders, less the tests beside it. */
export function isHandlerCode(path: string): boolean {
  if (isTestFile(path) || path.endsWith(".test-support.ts")) return false;
  return handlerFolders.some((folder) => path.startsWith(folder));
}

/**
 * Offences against "a handler receives its API's request type and returns its response type":
 * assertions through `unknown` or `any` anywhere in handler code, and, outside the listed
 * exceptions, assertions on bodies or to message types and bodies read by string key.
 */
export function checkHandlerTypes(facts: SourceFacts): Offence[] {
  if (!isHandlerCode(facts.path)) return [];
  const isExcepted = typedMessageExceptions.some((exception) => exception.path === facts.path);
  const offences: Offence[] = [];
  for (const cast of facts.casts) {
    if (isExcepted && cast.kind !== "unchecked") continue;
    const { rule, message } = describe(cast);
    offences.push({ rule, path: facts.path, line: cast.line, message });
  }
  return offences;
}

function describe(cast: CastFact): { readonly rule: RuleName; readonly message: string } {
  const typed = "declare the handler for its API (defineHandler), which types its request";
  switch (cast.kind) {
    case "unchecked":
      return {
        rule: "unchecked-cast",
        message: `asserts a type through unknown or any (${cast.text}); it checks nothing`,
      };
    case "bodyCast":
      return {
        rule: "untyped-body",
        message: `asserts the type of a body (${cast.text}); ${typed}`,
      };
    case "bodyRead":
      return { rule: "untyped-body", message: `reads a body by name (${cast.text}); ${typed}` };
    case "messageCast":
      return { rule: "message-cast", message: `asserts a message type (${cast.text}); ${typed}` };
  }
}
