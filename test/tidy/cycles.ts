/**
 * Finds cycles between folders of the module map. Within a folder imports are free; between
 * folders the graph must be acyclic so each folder can be understood, built and tested on top of
 * the ones below it.
 */
import type { SourceFacts } from "./analyse.js";
import type { Offence } from "./offence.js";
import { folderOf, isRelative, isTestFile, resolveImport } from "./paths.js";
import type { ModuleFolder } from "./rules.js";

/** An edge of the folder graph with the first import that creates it. */
interface FolderEdge {
  readonly from: ModuleFolder;
  readonly to: ModuleFolder;
  readonly path: string;
  readonly line: number;
}

/**
 * One offence per group of folders that import each other in a cycle, naming one import for
 * each edge inside the group. Test files are left out: they sit on top of everything.
 */
export function checkFolderCycles(sources: readonly SourceFacts[]): Offence[] {
  const edges = folderEdges(sources);
  const offences: Offence[] = [];
  for (const component of stronglyConnected(edges)) {
    if (component.length < 2) continue;
    const members = new Set(component);
    const inside = edges.filter((edge) => members.has(edge.from) && members.has(edge.to));
    const routes = inside.map((edge) => `${edge.from} -> ${edge.to} (${edge.path}:${edge.line})`);
    const first = inside[0];
    if (first === undefined) continue;
    const message = `folders import each other in a cycle: ${routes.join("; ")}`;
    offences.push({ rule: "import-cycle", path: first.path, line: first.line, message });
  }
  return offences;
}

function folderEdges(sources: readonly SourceFacts[]): FolderEdge[] {
  const edges = new Map<string, FolderEdge>();
  for (const facts of sources) {
    const from = folderOf(facts.path);
    if (from === undefined || isTestFile(facts.path)) continue;
    for (const fact of facts.imports) {
      if (fact.kind === "computed" || !isRelative(fact.specifier)) continue;
      const to = folderOf(resolveImport(facts.path, fact.specifier));
      if (to === undefined || to === from) continue;
      const key = `${from} ${to}`;
      if (!edges.has(key)) edges.set(key, { from, to, path: facts.path, line: fact.line });
    }
  }
  return [...edges.values()].sort((a, b) =>
    a.from === b.from ? compare(a.to, b.to) : compare(a.from, b.from),
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Tarjan's algorithm over the folder graph: each strongly connected component, sorted. */
function stronglyConnected(edges: readonly FolderEdge[]): ModuleFolder[][] {
  const successors = new Map<ModuleFolder, ModuleFolder[]>();
  for (const edge of edges) {
    successors.set(edge.from, [...(successors.get(edge.from) ?? []), edge.to]);
    if (!successors.has(edge.to)) successors.set(edge.to, []);
  }
  const index = new Map<ModuleFolder, number>();
  const lowLink = new Map<ModuleFolder, number>();
  const stack: ModuleFolder[] = [];
  const onStack = new Set<ModuleFolder>();
  const components: ModuleFolder[][] = [];
  const visit = (node: ModuleFolder): void => {
    index.set(node, index.size);
    lowLink.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const next of successors.get(node) ?? []) {
      if (!index.has(next)) visit(next);
      if (onStack.has(next)) {
        lowLink.set(node, Math.min(lowLink.get(node) ?? 0, lowLink.get(next) ?? 0));
      }
    }
    if (lowLink.get(node) !== index.get(node)) return;
    const component: ModuleFolder[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    components.push(component.sort(compare));
  };
  for (const node of [...successors.keys()].sort(compare)) if (!index.has(node)) visit(node);
  return components;
}
