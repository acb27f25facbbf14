// sim/mutants holds only an entry script (find-violation.ts), run on planted copies of the build
// by test/mutants; it has no public surface.
export {};
