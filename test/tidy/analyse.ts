/**
 * Reads the facts the tidy rules need from one TypeScript source: its imports, its uses of banned
 * platform functions, its functions with their lengths, and its type assertions. It parses with
 * the TypeScript compiler, so text in comments and strings never counts as code.
 */
import ts from "typescript";
import {
  bannedGlobalFunctions,
  bannedPropertyReads,
  generatedMarker,
  lineWidthMax,
  stateMachineDeclaration,
} from "./rules.js";
import { collectCasts, type CastFact } from "./casts.js";
import { collectFunctions, type FunctionFact } from "./functions.js";

/** How a module is brought in: each form names its target with a string. */
export type ImportKind = "import" | "export" | "dynamic" | "require";

/** One reference from a source file to a module. */
export type ImportFact =
  | {
      readonly kind: ImportKind;
      readonly specifier: string;
      readonly isTypeOnly: boolean;
      readonly line: number;
    }
  /** A dynamic import or require whose target is not a string literal, so it cannot be checked. */
  | { readonly kind: "computed"; readonly line: number };

/** A use of a platform function that reads time or randomness or schedules work. */
export interface BannedUseFact {
  readonly name: string;
  readonly line: number;
}

/** Everything the rules look at in one file. */
export interface SourceFacts {
  readonly path: string;
  readonly imports: readonly ImportFact[];
  readonly bannedUses: readonly BannedUseFact[];
  readonly functions: readonly FunctionFact[];
  /** Type assertions and body reads that may hide a message's type (casts.ts). */
  readonly casts: readonly CastFact[];
  readonly lineCount: number;
  /** Lines wider than the width limit, by their 1-based numbers. */
  readonly wideLines: readonly number[];
  readonly isGenerated: boolean;
  /** Whether the file's first comment says that it owns one state machine. */
  readonly declaresStateMachine: boolean;
}

export type { FunctionFact } from "./functions.js";

/** Parses `text` as the TypeScript file at `path` (repository-relative) and gathers its facts. */
export function analyseSource(path: string, text: string): SourceFacts {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, scriptKind(path));
  const imports: ImportFact[] = [];
  const bannedUses: BannedUseFact[] = [];
  const requireNames = new Set<string>(["require"]);
  const lineOf = (node: ts.Node): number =>
    source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    noteRequireAlias(node, requireNames);
    const found = importOf(node, requireNames);
    if (found !== undefined) imports.push({ ...found, line: lineOf(node) } as ImportFact);
    const banned = bannedNameOf(node);
    if (banned !== undefined) bannedUses.push({ name: banned, line: lineOf(node) });
    ts.forEachChild(node, visit);
  };
  visit(source);
  const lines = splitLines(text);
  return {
    path,
    imports,
    bannedUses,
    functions: collectFunctions(source),
    casts: collectCasts(source),
    lineCount: lines.length,
    wideLines: wideLineNumbers(lines),
    isGenerated: (lines[0] ?? "").startsWith(generatedMarker),
    declaresStateMachine: stateMachineDeclaration.test(firstComment(text)),
  };
}

/**
 * The words of the comment the file starts with (after blank lines), or "": its line breaks and
 * leading asterisks become single spaces, so a phrase may be wrapped.
 */
function firstComment(text: string): string {
  const [first] = ts.getLeadingCommentRanges(text, 0) ?? [];
  if (first === undefined) return "";
  return text
    .slice(first.pos, first.end)
    .replace(/^\s*\*+(?!\/)/gm, " ")
    .replace(/\s+/g, " ");
}

function scriptKind(path: string): ts.ScriptKind {
  return path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
}

/** The lines of a text; a final newline ends the last line rather than starting another. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function wideLineNumbers(lines: readonly string[]): number[] {
  const wide: number[] = [];
  lines.forEach((line, index) => {
    // Count code points, not UTF-16 units, so a non-Latin character counts once.
    if ([...line].length > lineWidthMax) wide.push(index + 1);
  });
  return wide;
}

type ImportWithoutLine =
  { kind: ImportKind; specifier: string; isTypeOnly: boolean } | { kind: "computed" };

/** Remembers `const load = createRequire(...)`, so `load("x")` counts as a require of "x". */
function noteRequireAlias(node: ts.Node, requireNames: Set<string>): void {
  if (!ts.isVariableDeclaration(node) || !ts.isIdentifier(node.name)) return;
  const init = node.initializer;
  if (init === undefined || !ts.isCallExpression(init)) return;
  const callee = init.expression;
  const calleeName = ts.isPropertyAccessExpression(callee) ? callee.name.text : callee.getText();
  if (calleeName === "createRequire") {
    requireNames.add(node.name.text);
  }
}

function importOf(node: ts.Node, requireNames: ReadonlySet<string>): ImportWithoutLine | undefined {
  if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
    const isTypeOnly = node.importClause?.isTypeOnly === true;
    return { kind: "import", specifier: node.moduleSpecifier.text, isTypeOnly };
  }
  if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined) {
    if (!ts.isStringLiteral(node.moduleSpecifier)) return { kind: "computed" };
    return { kind: "export", specifier: node.moduleSpecifier.text, isTypeOnly: node.isTypeOnly };
  }
  if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
    const target = node.moduleReference.expression;
    if (!ts.isStringLiteral(target)) return { kind: "computed" };
    return { kind: "require", specifier: target.text, isTypeOnly: node.isTypeOnly };
  }
  if (ts.isImportTypeNode(node)) {
    const argument = node.argument;
    if (ts.isLiteralTypeNode(argument) && ts.isStringLiteral(argument.literal)) {
      return { kind: "import", specifier: argument.literal.text, isTypeOnly: true };
    }
    return undefined;
  }
  if (ts.isCallExpression(node)) return callImportOf(node, requireNames);
  return undefined;
}

function callImportOf(
  node: ts.CallExpression,
  requireNames: ReadonlySet<string>,
): ImportWithoutLine | undefined {
  let kind: ImportKind;
  if (node.expression.kind === ts.SyntaxKind.ImportKeyword) kind = "dynamic";
  else if (ts.isIdentifier(node.expression) && requireNames.has(node.expression.text)) {
    kind = "require";
  } else return undefined;
  const [argument] = node.arguments;
  if (argument !== undefined && ts.isStringLiteralLike(argument)) {
    return { kind, specifier: argument.text, isTypeOnly: false };
  }
  return { kind: "computed" };
}

const bannedProperties = new Map<string, Set<string>>();
for (const [object, property] of bannedPropertyReads) {
  const properties = bannedProperties.get(object) ?? new Set<string>();
  properties.add(property);
  bannedProperties.set(object, properties);
}
const bannedGlobals = new Set(bannedGlobalFunctions);
const globalObjects = new Set(["globalThis", "global", "window", "self"]);

/**
 * The banned name `node` uses, if any: `Date.now` (read or called), `globalThis.Date.now`, a
 * reference to the global `setTimeout` (called or passed along), `globalThis.setTimeout`, and
 * `new Date()` or `Date()` without arguments, which read the wall clock.
 */
function bannedNameOf(node: ts.Node): string | undefined {
  if (ts.isPropertyAccessExpression(node)) {
    const object = unwrapGlobalObject(node.expression);
    const property = node.name.text;
    if (object === "globalThis" && bannedGlobals.has(property)) return `globalThis.${property}`;
    if (object !== undefined && bannedProperties.get(object)?.has(property) === true) {
      return `${object}.${property}`;
    }
    return undefined;
  }
  if (ts.isIdentifier(node) && bannedGlobals.has(node.text) && isValueReference(node)) {
    return node.text;
  }
  if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && isWallClockDate(node)) {
    return ts.isNewExpression(node) ? "new Date()" : "Date()";
  }
  return undefined;
}

/** "Date" for `Date` and `globalThis.Date`, "globalThis" for `globalThis` itself. */
function unwrapGlobalObject(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) {
    return globalObjects.has(expression.text) ? "globalThis" : expression.text;
  }
  if (ts.isPropertyAccessExpression(expression) && ts.isIdentifier(expression.expression)) {
    if (globalObjects.has(expression.expression.text)) return expression.name.text;
  }
  return undefined;
}

function isWallClockDate(node: ts.NewExpression | ts.CallExpression): boolean {
  const callee = unwrapGlobalObject(node.expression);
  return callee === "Date" && (node.arguments === undefined || node.arguments.length === 0);
}

/**
 * True when an identifier reads a value of that name, rather than declaring something called
 * `setTimeout`, naming a property (`timers.setTimeout`), or being a key in an object literal.
 */
function isValueReference(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if (ts.isQualifiedName(parent) && parent.right === node) return false;
  if (ts.isBindingElement(parent) && parent.propertyName === node) return false;
  const declares =
    (ts.isPropertyAssignment(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isPropertySignature(parent) ||
      ts.isMethodDeclaration(parent) ||
      ts.isMethodSignature(parent) ||
      ts.isFunctionDeclaration(parent) ||
      ts.isVariableDeclaration(parent) ||
      ts.isParameter(parent) ||
      ts.isBindingElement(parent) ||
      ts.isImportSpecifier(parent) ||
      ts.isExportSpecifier(parent) ||
      ts.isGetAccessor(parent) ||
      ts.isSetAccessor(parent)) &&
    (parent as { name?: ts.Node }).name === node;
  if (declares) return false;
  // `import { setTimeout } from "node:timers"` is caught by the import rule; the binding itself
  // is not a use. Type positions name types, not values.
  return !ts.isTypeReferenceNode(parent) && !ts.isTypeQueryNode(parent);
}
