// Issue 18: the package boundaries, read from the import graph. The real tree
// must have no package cycle, no import past a package face, no transport
// reachable from domain code or the crypto core, exports that resolve, and
// every @mc/* import declared; each rule is also shown to fail on a small
// synthetic tree that breaks it, so a rule that can no longer fail is noticed.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { readImportGraph, type ImportGraph } from "./import-graph.js";
import { deepImports, missingExports, packageCycles, transportReach, undeclaredDependencies } from "./import-rules.js";
import { repoRoot } from "./run-tool.js";

function exportsOf(root: string, graph: ImportGraph): string[] {
  return missingExports(graph, (p) => existsSync(join(root, p)));
}

// --- the repository

const real = suite("import graph :: this repository");
let graph: ImportGraph | undefined;
const repo = (): ImportGraph => (graph ??= readImportGraph(repoRoot));

real("should read every workspace package's sources", () => {
  const g = repo();
  for (const name of ["@mc/shared", "@mc/kms", "@mc/gateway", "@mc/app", "@mc/cli", "@mc/wasm"]) {
    assert.ok([...g.files.values()].includes(name), `${name} has source files`);
  }
  assert.ok(g.edges.some((e) => e.from === "app/src/main.ts" && e.specifier === "@mc/kms" && e.to === "services/kms/src/index.ts"), "a dynamic import resolves through the face");
});

real("should have no package cycle", () => {
  assert.equal(packageCycles(repo()), []);
});

real("should import other packages only through their faces", () => {
  assert.equal(deepImports(repo()), []);
});

real("should reach no transport from domain code or the crypto core", () => {
  assert.equal(transportReach(repo()), []);
});

real("should export only files that exist", () => {
  assert.equal(exportsOf(repoRoot, repo()), []);
});

real("should declare every @mc package that shipped code imports", () => {
  assert.equal(undeclaredDependencies(repo()), []);
});

real.run();

// --- synthetic trees: each rule fails on a tree that breaks it

type Tree = Record<string, string>;

function pkg(name: string, exports: Record<string, string>, deps: string[] = []): string {
  return JSON.stringify({ name, type: "module", exports, dependencies: Object.fromEntries(deps.map((d) => [d, "0.1.0"])) });
}

/** A clean tree: a pure domain and crypto core, a service on them, a CLI on the service's client face. */
function base(): Tree {
  return {
    "package.json": JSON.stringify({ workspaces: ["services/shared", "services/svc", "wasm", "cli"] }),
    "services/shared/package.json": pkg("@mc/shared", { "./errors": "./src/errors.ts", "./bus": "./src/bus.ts" }),
    "services/shared/src/errors.ts": "export class AppError extends Error {}\n",
    "services/shared/src/bus.ts": 'import { connect } from "@nats-io/transport-node";\nexport const bus = connect;\n',
    "wasm/package.json": pkg("@mc/wasm", { ".": "./src/index.ts" }, ["@mc/shared"]),
    "wasm/src/index.ts": 'import { AppError } from "@mc/shared/errors";\nexport const seal = (): AppError => new AppError();\n',
    "services/svc/package.json": pkg("@mc/svc", { ".": "./src/index.ts", "./client": "./src/client/index.ts", "./gen/*": "./gen/*" }, ["@mc/shared", "@mc/wasm"]),
    "services/svc/gen/v1/svc_pb.ts": "export const Svc = {};\n",
    "services/svc/src/index.ts": 'export { rule } from "./domain/rule.js";\nexport { bus } from "@mc/shared/bus";\n',
    "services/svc/src/domain/rule.ts": 'import type { Server } from "node:http";\nimport { seal } from "@mc/wasm";\nimport { AppError } from "@mc/shared/errors";\nexport const rule = (s?: Server): unknown => s ?? seal() ?? AppError;\n',
    "services/svc/src/client/index.ts": 'import { Svc } from "@mc/svc/gen/v1/svc_pb.js";\nexport const client = Svc;\n',
    "services/svc/src/domain/rule.test.ts": 'import { readFileSync } from "node:fs";\nimport "../../../../cli/src/main.js";\nexport const probe = readFileSync;\n',
    "cli/package.json": pkg("@mc/cli", { ".": "./src/main.ts" }, ["@mc/svc"]),
    "cli/src/main.ts": 'const { client } = await import("@mc/svc/client");\nexport { client };\n',
  };
}

function withTree(tree: Tree, check: (root: string, graph: ImportGraph) => void): void {
  const root = mkdtempSync(join(tmpdir(), "import-graph-"));
  try {
    for (const [path, text] of Object.entries(tree)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    check(root, readImportGraph(root));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const synthetic = suite("import graph :: synthetic trees");

synthetic("should find nothing in a clean tree :: type-only and test-file imports do not count", () => {
  withTree(base(), (root, g) => {
    assert.equal(packageCycles(g), []);
    assert.equal(deepImports(g), []);
    assert.equal(transportReach(g), []);
    assert.equal(exportsOf(root, g), []);
    assert.equal(undeclaredDependencies(g), []);
  });
});

synthetic("should fail on a package cycle :: the service importing the CLI that imports it", () => {
  const tree = { ...base(), "services/svc/src/adapters/edge.ts": 'import { client } from "@mc/cli";\nexport const edge = client;\n' };
  withTree(tree, (_root, g) => {
    const cycles = packageCycles(g);
    assert.is(cycles.length, 1);
    assert.match(cycles[0] ?? "", /^package cycle @mc\/cli <-> @mc\/svc: /);
    assert.match(cycles[0] ?? "", /services\/svc\/src\/adapters\/edge\.ts imports "@mc\/cli"/);
  });
});

synthetic("should fail on a deep import :: a relative path into another package's src", () => {
  const tree = { ...base(), "cli/src/kms.ts": 'export { rule } from "../../services/svc/src/domain/rule.js";\n' };
  withTree(tree, (_root, g) => {
    assert.equal(deepImports(g), [`cli/src/kms.ts imports "../../services/svc/src/domain/rule.js": a path into @mc/svc's files; import its face (package exports) instead`]);
  });
});

synthetic("should fail on a deep import :: a subpath the package does not export", () => {
  const tree = { ...base(), "cli/src/kms.ts": 'export { rule } from "@mc/svc/src/domain/rule.js";\n' };
  withTree(tree, (_root, g) => {
    assert.equal(deepImports(g), [`cli/src/kms.ts imports "@mc/svc/src/domain/rule.js": not a subpath @mc/svc exports (or its target is missing)`]);
  });
});

synthetic("should fail on transport reachable from domain code :: through a barrel re-exporting a type and a value of one module", () => {
  const tree = {
    ...base(),
    "services/shared/package.json": pkg("@mc/shared", { ".": "./src/index.ts", "./errors": "./src/errors.ts" }),
    "services/shared/src/index.ts": 'export { AppError } from "./errors.js";\nexport type { Bus } from "./bus.js";\nexport { bus } from "./bus.js";\n',
    "services/shared/src/bus.ts": 'import { connect } from "@nats-io/transport-node";\nexport type Bus = typeof connect;\nexport const bus = connect;\n',
    "services/svc/src/index.ts": 'export { rule } from "./domain/rule.js";\n',
    "services/svc/src/domain/rule.ts": 'import { AppError } from "@mc/shared";\nexport const rule = AppError;\n',
  };
  withTree(tree, (_root, g) => {
    assert.equal(transportReach(g), [
      `"@nats-io/transport-node" is reachable from pure code: services/svc/src/domain/rule.ts -> services/shared/src/index.ts -> services/shared/src/bus.ts`,
    ]);
  });
});

synthetic("should fail on transport reachable from the crypto core :: a direct node:fs import", () => {
  const tree = { ...base(), "wasm/src/load.ts": 'import { readFile } from "node:fs/promises";\nexport const load = readFile;\n' };
  withTree(tree, (_root, g) => {
    assert.equal(transportReach(g), [`"node:fs/promises" is reachable from pure code: wasm/src/load.ts`]);
  });
});

synthetic("should fail on an exports entry to a missing file and an undeclared dependency", () => {
  const tree = { ...base(), "cli/package.json": pkg("@mc/cli", { ".": "./src/main.ts", "./gen/*": "./gen/*" }), "cli/src/x.ts": 'export * from "@mc/wasm";\n' };
  withTree(tree, (root, g) => {
    assert.equal(exportsOf(root, g), [`@mc/cli exports "./gen/*" -> ./gen/*, which does not exist`]);
    assert.equal(undeclaredDependencies(g), [
      `@mc/cli does not declare @mc/svc (cli/src/main.ts imports "@mc/svc/client")`,
      `@mc/cli does not declare @mc/wasm (cli/src/x.ts imports "@mc/wasm")`,
    ]);
  });
});

synthetic.run();
