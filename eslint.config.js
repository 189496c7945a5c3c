// Lint rules the type checker cannot express. `npm test` runs this (tests/checks).
import tseslint from "typescript-eslint";

const domainBans = {
  patterns: [
    { group: ["@connectrpc/*", "@connectrpc/**"], message: "domain code is pure: Connect belongs in src/adapters/" },
    { group: ["@nats-io/*", "@nats-io/**"], message: "domain code is pure: NATS belongs in src/adapters/" },
    { group: ["**/gen/**", "*/gen/*", "@mc/*/gen/*"], message: "domain code is pure: generated protobuf types belong in src/adapters/" },
  ],
  paths: ["fs", "node:fs", "fs/promises", "node:fs/promises", "net", "node:net", "http", "node:http", "https", "node:https", "http2", "node:http2"].map(
    (name) => ({ name, message: "domain code is pure: I/O belongs in src/adapters/ or src/main.ts" }),
  ),
};

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
  {
    files: ["services/*/src/domain/**/*.ts"],
    rules: { "no-restricted-imports": ["error", domainBans] },
  },
);
