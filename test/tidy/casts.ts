/**
 * Finds the places in a parsed file where a request or response loses the type of its API: a
 * type assertion through `unknown` or `any`, an assertion on a body or to a message type, and a
 * body read by string key. Whether such a place is an offence depends on the folder (rules.ts).
 */
import ts from "typescript";
import { messageTypeName } from "./rules.js";

/** What kind of type hole a place is. */
export type CastKind = "unchecked" | "bodyCast" | "bodyRead" | "messageCast";

/** One such place, with the text of the expression for the message. */
export interface CastFact {
  readonly kind: CastKind;
  readonly line: number;
  readonly text: string;
}

const textMax = 60;

/** Every cast and untyped body read in `source`, in source order. */
export function collectCasts(source: ts.SourceFile): CastFact[] {
  const facts: CastFact[] = [];
  const note = (kind: CastKind, node: ts.Node): void => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    const text = node.getText(source).replace(/\s+/g, " ");
    facts.push({ kind, line, text: text.length > textMax ? `${text.slice(0, textMax)}…` : text });
  };
  const visit = (node: ts.Node): void => {
    if (isAssertion(node) && !isConstAssertion(node)) {
      if (isUnchecked(node)) note("unchecked", node);
      if (isBody(skipWrappers(node.expression))) note("bodyCast", node);
      if (mentionsMessageType(node.type)) note("messageCast", node);
    }
    if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) {
      if (isBody(skipWrappers(node.expression))) note("bodyRead", node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return facts;
}

type Assertion = ts.AsExpression | ts.TypeAssertion;

function isAssertion(node: ts.Node): node is Assertion {
  return ts.isAsExpression(node) || ts.isTypeAssertionExpression(node);
}

/** `as const` fixes literal types; it widens nothing. */
function isConstAssertion(node: Assertion): boolean {
  const type = node.type;
  return (
    ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && type.typeName.text === "const"
  );
}

/**
 * `x as any`, and the inner half of `x as unknown as T`: either lets any type through. A lone
 * `x as unknown` only widens, which is safe.
 */
function isUnchecked(node: Assertion): boolean {
  if (node.type.kind === ts.SyntaxKind.AnyKeyword) return true;
  if (node.type.kind !== ts.SyntaxKind.UnknownKeyword) return false;
  let parent = node.parent;
  while (ts.isParenthesizedExpression(parent)) parent = parent.parent;
  return isAssertion(parent);
}

/** The expression inside parentheses and non-null assertions. */
function skipWrappers(expression: ts.Expression): ts.Expression {
  let inner = expression;
  while (ts.isParenthesizedExpression(inner) || ts.isNonNullExpression(inner)) {
    inner = inner.expression;
  }
  return inner;
}

/** `body`, `context.body`, `request?.body` or `x["body"]`: a request or response body. */
function isBody(expression: ts.Expression): boolean {
  if (ts.isIdentifier(expression)) return expression.text === "body";
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text === "body";
  if (ts.isElementAccessExpression(expression)) {
    const key = expression.argumentExpression;
    return ts.isStringLiteralLike(key) && key.text === "body";
  }
  return false;
}

/** True when a type names a message type anywhere in it (`X[]`, `MessageInput<XRequest>`). */
function mentionsMessageType(type: ts.TypeNode): boolean {
  let found = false;
  const visit = (node: ts.Node): void => {
    if (ts.isTypeReferenceNode(node)) {
      const name = node.typeName;
      const last = ts.isQualifiedName(name) ? name.right.text : name.text;
      if (messageTypeName.test(last)) found = true;
    }
    if (!found) ts.forEachChild(node, visit);
  };
  visit(type);
  return found;
}
