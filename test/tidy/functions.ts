/**
 * Finds every function in a parsed file and measures it, under a key that survives edits
 * elsewhere in the file: the chain of enclosing names (class, object, function, test title), not a
 * line number, so the ratchet can follow a function as the code around it moves.
 */
import ts from "typescript";

/** One function-like body in a file and its length in lines, signature included. */
export interface FunctionFact {
  /** Stable name within the file, such as "LogSegment.append" or `test("rolls a segment")`. */
  readonly key: string;
  /** The 1-based line the function starts on (its first token, not its doc comment). */
  readonly line: number;
  readonly lines: number;
}

type FunctionNode =
  | ts.FunctionDeclaration
  | ts.MethodDeclaration
  | ts.ConstructorDeclaration
  | ts.GetAccessorDeclaration
  | ts.SetAccessorDeclaration
  | ts.ArrowFunction
  | ts.FunctionExpression;

/**
 * Callbacks of these calls only group tests; their length is the sum of the tests inside, each of
 * which is measured on its own, so the group itself is not held to the function limit.
 */
const groupingCalls = new Set(["describe", "suite"]);

const titleLengthMax = 60;

/** Every function with a body in `source`, outermost first, with unique keys. */
export function collectFunctions(source: ts.SourceFile): FunctionFact[] {
  const facts: FunctionFact[] = [];
  const keyCounts = new Map<string, number>();
  const uniqueKey = (key: string): string => {
    const count = (keyCounts.get(key) ?? 0) + 1;
    keyCounts.set(key, count);
    return count === 1 ? key : `${key}#${count}`;
  };
  const walk = (node: ts.Node, scope: string): void => {
    let childScope = scope;
    if (isFunctionNode(node) && node.body !== undefined) {
      const key = uniqueKey(qualify(scope, functionName(node)));
      childScope = key;
      if (!isGroupingCallback(node)) facts.push(measure(source, node, key));
    } else if (ts.isClassLike(node)) {
      childScope = qualify(scope, node.name?.text ?? "<class>");
    } else if (ts.isObjectLiteralExpression(node)) {
      const name = containerName(node);
      if (name !== undefined) childScope = qualify(scope, name);
    }
    ts.forEachChild(node, (child) => walk(child, childScope));
  };
  walk(source, "");
  return facts;
}

function isFunctionNode(node: ts.Node): node is FunctionNode {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node)
  );
}

function measure(source: ts.SourceFile, node: ts.Node, key: string): FunctionFact {
  const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
  const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
  return { key, line: start + 1, lines: end - start + 1 };
}

function qualify(scope: string, name: string): string {
  return scope === "" ? name : `${scope}.${name}`;
}

function functionName(node: FunctionNode): string {
  if (ts.isConstructorDeclaration(node)) return "constructor";
  if (ts.isGetAccessorDeclaration(node)) return `get ${propertyName(node.name)}`;
  if (ts.isSetAccessorDeclaration(node)) return `set ${propertyName(node.name)}`;
  if (ts.isMethodDeclaration(node)) return propertyName(node.name);
  if (ts.isFunctionDeclaration(node)) return node.name?.text ?? "default";
  if (ts.isFunctionExpression(node) && node.name !== undefined) return node.name.text;
  return expressionName(node);
}

/** Names an arrow function or function expression by where it is put. */
function expressionName(node: ts.ArrowFunction | ts.FunctionExpression): string {
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return propertyName(parent.name);
  }
  if (ts.isBinaryExpression(parent) && parent.right === node) return parent.left.getText();
  if (ts.isExportAssignment(parent)) return "default";
  if (ts.isCallExpression(parent)) return callbackName(parent);
  return "<function>";
}

/** `test("title")` for a callback given after a string, `then(callback)` otherwise. */
function callbackName(call: ts.CallExpression): string {
  const callee = calleeName(call);
  const [first] = call.arguments;
  if (first !== undefined && ts.isStringLiteralLike(first)) {
    const title = first.text.slice(0, titleLengthMax);
    return `${callee}(${JSON.stringify(title)})`;
  }
  return `${callee}(callback)`;
}

function calleeName(call: ts.CallExpression): string {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return "<call>";
}

function isGroupingCallback(node: FunctionNode): boolean {
  const parent = node.parent;
  return ts.isCallExpression(parent) && groupingCalls.has(calleeName(parent));
}

function containerName(node: ts.ObjectLiteralExpression): string | undefined {
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent)) return propertyName(parent.name);
  return undefined;
}

function propertyName(name: ts.PropertyName): string {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteralLike(name) || ts.isNumericLiteral(name)) return name.text;
  return name.getText();
}
