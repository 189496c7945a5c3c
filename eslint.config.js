// Lint rules the type checker cannot express. `npm test` runs this (tests/checks).
import tseslint from "typescript-eslint";

const ioBans = ["fs", "node:fs", "fs/promises", "node:fs/promises", "net", "node:net", "http", "node:http", "https", "node:https", "http2", "node:http2"];

const domainBans = {
  patterns: [
    { group: ["@connectrpc/*", "@connectrpc/**"], message: "domain code is pure: Connect belongs in src/adapters/" },
    { group: ["@nats-io/*", "@nats-io/**"], message: "domain code is pure: NATS belongs in src/adapters/" },
    { group: ["**/gen/**", "*/gen/*", "@mc/*/gen/*"], message: "domain code is pure: generated protobuf types belong in src/adapters/" },
  ],
  paths: ioBans.map((name) => ({ name, message: "domain code is pure: I/O belongs in src/adapters/ or src/main.ts" })),
};

// Issue 18: only the errors entry of the spine is for pure code; its other
// faces carry Connect, NATS, pino and file writing.
const sharedTransportBan = {
  regex: "^@mc/shared(/(?!errors$).*)?$",
  message: "pure code imports only @mc/shared/errors; the spine's other entries carry transport",
};
const loggerBan = { group: ["pino", "pino/*", "pino-*"], message: "pure code does not log: return or throw, and let the adapter log" };

// A package is entered through its face (package.json exports), never by a
// relative path into another package's files (tests may read internals).
const deepBan = {
  regex: "^(\\.\\./)+(services/[^/]+|wasm|gateway|cli|app)/(src|gen)(/|$)",
  message: "import the package's face (@mc/<name> or one of its exports), not a path into its files",
};

// The crypto core is pure too: libsodium, node:crypto and the errors entry.
const cryptoBans = {
  patterns: [
    { group: ["@connectrpc/*", "@connectrpc/**"], message: "the crypto core carries no transport" },
    { group: ["@nats-io/*", "@nats-io/**"], message: "the crypto core carries no transport" },
  ],
  paths: ioBans.map((name) => ({ name, message: "the crypto core does no I/O" })),
};

const withBans = (bans, ...extra) => ({ ...bans, patterns: [...bans.patterns, ...extra] });

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/gen/**", "**/dist/**", ".data/**", "tests/output/**"] },
  {
    files: ["**/*.ts"],
    languageOptions: { parser: tseslint.parser },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "no-restricted-syntax": ["error", { selector: "ExportDefaultDeclaration", message: "use named exports" }],
    },
  },
  // One no-restricted-imports entry per file group: a later entry replaces an earlier one's options.
  {
    files: ["services/**/*.{ts,js,mjs}", "gateway/**/*.{ts,js,mjs}", "app/**/*.{ts,js,mjs}", "cli/**/*.{ts,js,mjs}", "wasm/**/*.{ts,js,mjs}"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [deepBan] }] },
  },
  {
    files: ["services/*/src/domain/**/*.ts"],
    rules: { "no-restricted-imports": ["error", withBans(domainBans, sharedTransportBan, loggerBan, deepBan)] },
  },
  {
    files: ["wasm/src/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", withBans(cryptoBans, sharedTransportBan, loggerBan, deepBan)] },
  },
);
