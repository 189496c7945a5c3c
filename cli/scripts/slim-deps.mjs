// What mc's start-up does not need of its dependencies, left out of it at
// bundle time (issue 23): each rule below is checked against the source it
// rewrites, and the build fails when that source no longer fits it (a new
// release of the package), rather than mc failing at run time.
// - node builtins that load slowly (https with tls, zlib, child_process, ...)
//   become objects whose properties require the real module on first use:
//   `mc ls` of an http endpoint never loads TLS;
// - lodash, of which the minio SDK uses a handful of functions, is taken one
//   function module at a time (the whole library costs ~2 MB of allocation
//   to initialise on every `mc ls`);
// - mime-types (mime-db, a 2,000-key object literal) and xml2js's Builder,
//   which the SDK creates at load, are loaded when first called.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { dirname, join } from "node:path";

/** Builtins the bundle may import that cost a command's start-up when only some commands use them. */
const lazyBuiltinNames = ["https", "tls", "tty", "fs/promises", "zlib", "child_process", "dns", "readline", "http2", "worker_threads", "perf_hooks", "v8", "inspector"];

/** A module object standing for builtin `name`: every export a getter (and setter) on the real module. */
function lazyBuiltinSource(name) {
  const keys = Object.getOwnPropertyNames(createRequire(import.meta.url)(`node:${name}`)).filter((k) => k !== "default");
  return [
    "let real;",
    `const load = () => (real ??= require("node:${name}"));`,
    `for (const key of ${JSON.stringify(keys)}) Object.defineProperty(module.exports, key, { enumerable: true, get: () => load()[key], set: (value) => void (load()[key] = value) });`,
  ].join("\n");
}

/** The `_.name` functions a lodash importer uses; throws if it uses `_` in any other way. */
export function lodashFunctionsOf(source, file) {
  const body = source.replace(/^import _ from ["']lodash["'];?$/m, "");
  if (body === source) throw new Error(`${file}: imports lodash other than as \`import _ from 'lodash'\`: update cli/scripts/slim-deps.mjs`);
  // Strings, comments and `[_, x]` placeholders hold no use of lodash (a conservative reading: anything else fails).
  const code = body.replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g, '""').replace(/\/\/.*$/gm, "").replace(/\[_,/g, "[,");
  const names = new Set();
  for (const m of code.matchAll(/(?<![\w$.])_(?![\w$])(\.([A-Za-z]+))?/g)) {
    if (m[2] === undefined) throw new Error(`${file}: uses lodash's \`_\` other than as \`_.name\`: update cli/scripts/slim-deps.mjs`);
    names.add(m[2]);
  }
  return [...names].sort();
}

/** For source files whose import of `from` may be replaced: the members used as `alias.member`, all of them in `allowed`. */
function membersOf(source, file, alias, allowed) {
  const used = new Set([...source.matchAll(new RegExp(`(?<![\\w$.])${alias}\\.([A-Za-z]+)`, "g"))].map((m) => m[1]));
  const other = [...used].filter((u) => !allowed.includes(u));
  if (other.length > 0) throw new Error(`${file}: uses ${alias}.${other.join(`, ${alias}.`)}, which cli/scripts/slim-deps.mjs does not provide`);
}

const stubs = {
  "mime-types": (importer) => {
    membersOf(readFileSync(importer, "utf8"), importer, "mime", ["lookup"]);
    return 'export function lookup(path) { return require("mime-types/index.js").lookup(path); }';
  },
  xml2js: (importer) => {
    const source = readFileSync(importer, "utf8");
    membersOf(source, importer, "xml2js", ["Builder"]);
    membersOf(source, importer, "(?:xml|builder)", ["buildObject"]);
    return [
      // xml2js's Builder has one method; the real one is made on its first call.
      "class Builder {",
      "  constructor(options) { this.options = options; }",
      '  buildObject(root) { this.real ??= new (require("xml2js/lib/xml2js.js").Builder)(this.options); return this.real.buildObject(root); }',
      "}",
      "export default { Builder };",
    ].join("\n");
  },
  lodash: (importer) => {
    const names = lodashFunctionsOf(readFileSync(importer, "utf8"), importer);
    const lodashDir = dirname(createRequire(importer).resolve("lodash/package.json"));
    for (const n of names) readFileSync(join(lodashDir, `${n}.js`));
    return `export default { ${names.map((n) => `${n}: require("lodash/${n}.js")`).join(", ")} };`;
  },
};

/**
 * clipanion's Cli: its default context reads process.stdin (node then sets up
 * the stdin stream: a pipe, a file or a TTY) and the terminal's colour depth
 * (node's tty module) when the module loads, and each run copies it with a
 * spread, which reads them again. Here both are getters and the copies keep
 * getters, so stdin exists once a command reads it, and the colour depth
 * (mc's McCli sets enableColors) never.
 */
function patchClipanionCli(source, file) {
  const edits = [
    [/const context = \{\n\s*\.\.\.Cli\.defaultContext,\n\s*\.\.\.userContext,\n\s*\};/g, "const context = mergeContexts(Cli.defaultContext, userContext);", 2],
    [/ {4}stdin: process\.stdin,\n/g, "    get stdin() { return process.stdin; },\n", 1],
    [/ {4}colorDepth: platform\.getDefaultColorDepth\(\),\n/g, "    get colorDepth() { return platform.getDefaultColorDepth(); },\n", 1],
  ];
  let out = source;
  for (const [pattern, replacement, count] of edits) {
    const found = out.match(pattern)?.length ?? 0;
    if (found !== count) throw new Error(`${file}: expected ${count} of ${pattern} (clipanion changed): update cli/scripts/slim-deps.mjs`);
    out = out.replace(pattern, replacement);
  }
  return `${out}\nfunction mergeContexts(...parts) { const out = {}; for (const part of parts) if (part) Object.defineProperties(out, Object.getOwnPropertyDescriptors(part)); return out; }\n`;
}

/**
 * clipanion's simplifyMachine (core.js) merges each state's shortcut targets
 * into it and looks up every transition in the arrays built so far with
 * Array.prototype.some: with mc's ~20 options on every command that is a
 * third of a command line's parse. The same merge, same order, with the
 * targets kept in sets, and index loops (no iterator objects to allocate in
 * code that runs once). Replaced only if the function is the one read here.
 */
const simplifyMachineSha256 = "3dc93c00bcca2f76f0bfc7a0e281a25da2a42a54517012a17102389262a13ce1";
const simplifyMachine = `function simplifyMachine(input) {
    const visited = new Set();
    const process = (node) => {
        if (visited.has(node))
            return;
        visited.add(node);
        const nodeDef = input.nodes[node];
        const segments = Object.keys(nodeDef.statics);
        for (let s = 0; s < segments.length; s++) {
            const transitions = nodeDef.statics[segments[s]];
            for (let i = 0; i < transitions.length; i++)
                process(transitions[i].to);
        }
        for (let i = 0; i < nodeDef.dynamics.length; i++)
            process(nodeDef.dynamics[i][1].to);
        for (let i = 0; i < nodeDef.shortcuts.length; i++)
            process(nodeDef.shortcuts[i].to);
        const shortcuts = new Set();
        for (let i = 0; i < nodeDef.shortcuts.length; i++)
            shortcuts.add(nodeDef.shortcuts[i].to);
        const staticTargets = new Map();
        const dynamicTargets = new Map();
        for (let i = 0; i < nodeDef.dynamics.length; i++) {
            const test = nodeDef.dynamics[i][0];
            let targets = dynamicTargets.get(test);
            if (targets === undefined)
                dynamicTargets.set(test, targets = new Set());
            targets.add(nodeDef.dynamics[i][1].to);
        }
        while (nodeDef.shortcuts.length > 0) {
            const { to } = nodeDef.shortcuts.shift();
            const toDef = input.nodes[to];
            const toSegments = Object.keys(toDef.statics);
            for (let s = 0; s < toSegments.length; s++) {
                const segment = toSegments[s];
                const transitions = toDef.statics[segment];
                const store = !Object.prototype.hasOwnProperty.call(nodeDef.statics, segment)
                    ? nodeDef.statics[segment] = []
                    : nodeDef.statics[segment];
                let targets = staticTargets.get(segment);
                if (targets === undefined) {
                    staticTargets.set(segment, targets = new Set());
                    for (let i = 0; i < store.length; i++)
                        targets.add(store[i].to);
                }
                for (let i = 0; i < transitions.length; i++) {
                    const transition = transitions[i];
                    if (!targets.has(transition.to)) {
                        store.push(transition);
                        targets.add(transition.to);
                    }
                }
            }
            for (let i = 0; i < toDef.dynamics.length; i++) {
                const test = toDef.dynamics[i][0];
                const transition = toDef.dynamics[i][1];
                let targets = dynamicTargets.get(test);
                if (targets === undefined)
                    dynamicTargets.set(test, targets = new Set());
                if (!targets.has(transition.to)) {
                    nodeDef.dynamics.push([test, transition]);
                    targets.add(transition.to);
                }
            }
            for (let i = 0; i < toDef.shortcuts.length; i++) {
                const transition = toDef.shortcuts[i];
                if (!shortcuts.has(transition.to)) {
                    nodeDef.shortcuts.push(transition);
                    shortcuts.add(transition.to);
                }
            }
        }
    };
    process(constants.NODE_INITIAL);
}`;

function patchClipanionCore(source, file) {
  const at = source.indexOf("function simplifyMachine(input) {");
  const end = source.indexOf("\n}\n", at) + 2;
  if (at < 0 || createHash("sha256").update(source.slice(at, end)).digest("hex") !== simplifyMachineSha256) {
    throw new Error(`${file}: simplifyMachine is not the function cli/scripts/slim-deps.mjs replaces (clipanion changed): update it`);
  }
  return source.slice(0, at) + simplifyMachine + source.slice(end);
}

/** The esbuild plugin (release and development bundles alike, so the test suite runs what users run). */
export const slimDeps = {
  name: "mc-slim-deps",
  setup(b) {
    const builtins = new Set(builtinModules);
    const lazy = lazyBuiltinNames.filter((n) => builtins.has(n));
    b.onResolve({ filter: new RegExp(`^(node:)?(${lazy.join("|")})$`) }, (args) => (args.namespace === "mc-lazy-builtin" ? undefined : { path: args.path.replace(/^node:/, ""), namespace: "mc-lazy-builtin" }));
    b.onLoad({ filter: /.*/, namespace: "mc-lazy-builtin" }, (args) => ({ contents: lazyBuiltinSource(args.path), loader: "js" }));
    // Only the minio SDK's imports: others (none today) keep the whole package.
    // The stand-in's path names its importer without its folder: the release SBOM takes every metafile path
    // with node_modules/ in it for a package (scripts/release/bundle-packages.ts), and a stand-in is none.
    b.onResolve({ filter: /^(lodash|mime-types|xml2js)$/ }, (args) =>
      /[\\/]node_modules[\\/]minio[\\/]/.test(args.importer)
        ? { path: `${args.path} for ${createHash("sha256").update(args.importer).digest("hex").slice(0, 12)}`, namespace: `mc-slim-${args.path}`, pluginData: { importer: args.importer } }
        : undefined,
    );
    b.onLoad({ filter: /[\\/]node_modules[\\/]clipanion[\\/]lib[\\/]core\.js$/ }, (args) => ({ contents: patchClipanionCore(readFileSync(args.path, "utf8"), args.path), loader: "js" }));
    b.onLoad({ filter: /[\\/]node_modules[\\/]clipanion[\\/]lib[\\/]advanced[\\/]Cli\.js$/ }, (args) => ({ contents: patchClipanionCli(readFileSync(args.path, "utf8"), args.path), loader: "js" }));
    for (const name of Object.keys(stubs)) {
      b.onLoad({ filter: /.*/, namespace: `mc-slim-${name}` }, (args) => ({ contents: stubs[name](args.pluginData.importer), loader: "js", resolveDir: dirname(args.pluginData.importer) }));
    }
  },
};
