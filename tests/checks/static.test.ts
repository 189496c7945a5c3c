import { suite } from "uvu";
import * as assert from "uvu/assert";
import { runTool } from "./run-tool.js";

const lint = suite("static checks");

lint("should pass buf lint (STANDARD)", () => {
  const res = runTool("buf", ["lint"]);
  assert.is(res.status, 0, res.output);
});

lint("should pass eslint", () => {
  const res = runTool("eslint", ["--max-warnings", "0", "."]);
  assert.is(res.status, 0, res.output);
});

lint("should type-check every workspace (strict)", () => {
  const res = runTool("tsc", ["-p", "tsconfig.json"]);
  assert.is(res.status, 0, res.output);
});

lint("should reject I/O, Connect, NATS and gen imports in domain code", () => {
  const source = [
    'import { createClient } from "@connectrpc/connect";',
    'import { connect } from "@nats-io/transport-node";',
    'import { readFile } from "node:fs/promises";',
    'import { createServer } from "node:http";',
    'import { Socket } from "node:net";',
    'import { KeySchema } from "../../gen/kms/v1/key_pb.js";',
    "export const used = [createClient, connect, readFile, createServer, Socket, KeySchema];",
  ].join("\n");
  const res = runTool("eslint", ["--stdin", "--stdin-filename", "services/kms/src/domain/probe.ts"], source);
  assert.is.not(res.status, 0);
  for (const what of ["@connectrpc/connect", "@nats-io/transport-node", "node:fs/promises", "node:http", "node:net", "gen/kms"]) {
    assert.match(res.output, what, `${what} was not rejected`);
  }
  const adapter = runTool("eslint", ["--stdin", "--stdin-filename", "services/kms/src/adapters/probe.ts"], source);
  assert.is(adapter.status, 0, adapter.output);
});

lint("should reject the spine's transport entries and pino in domain code and the crypto core :: only @mc/shared/errors", () => {
  const source = [
    'import { AppError } from "@mc/shared/errors";',
    'import { connectNatsBus } from "@mc/shared/bus";',
    'import { toConnectError } from "@mc/shared/connect";',
    'import { createLogger } from "@mc/shared/node";',
    'import { createRestHandler } from "@mc/shared/rest";',
    'import { pino } from "pino";',
    "export const used = [AppError, connectNatsBus, toConnectError, createLogger, createRestHandler, pino];",
  ].join("\n");
  for (const file of ["services/releases/src/domain/probe.ts", "wasm/src/probe.ts"]) {
    const res = runTool("eslint", ["--stdin", "--stdin-filename", file], source);
    assert.is.not(res.status, 0, file);
    for (const what of ["@mc/shared/bus", "@mc/shared/connect", "@mc/shared/node", "@mc/shared/rest", "'pino'"]) {
      assert.match(res.output, what, `${file}: ${what} was not rejected`);
    }
    assert.not.match(res.output, "'@mc/shared/errors'", `${file}: the errors entry is for pure code`);
  }
  const crypto = runTool("eslint", ["--stdin", "--stdin-filename", "wasm/src/probe.ts"], 'import { readFile } from "node:fs/promises";\nexport const used = readFile;\n');
  assert.match(crypto.output, "node:fs/promises", "the crypto core does no I/O");
});

lint("should reject a relative path into another package's files :: tests may read internals", () => {
  const source = 'export { createKmsClient } from "../../../services/kms/src/client/kms-client.js";\nexport { initCrypto } from "../../../wasm/src/init-crypto.js";\n';
  const res = runTool("eslint", ["--stdin", "--stdin-filename", "cli/src/kms/probe.ts"], source);
  assert.is.not(res.status, 0);
  for (const what of ["services/kms/src/client", "wasm/src/init-crypto"]) assert.match(res.output, what, `${what} was not rejected`);
  const face = runTool("eslint", ["--stdin", "--stdin-filename", "cli/src/kms/probe.ts"], 'export { createKmsClient } from "@mc/kms/client";\n');
  assert.is(face.status, 0, face.output);
  const test = runTool("eslint", ["--stdin", "--stdin-filename", "tests/kms/probe.test.ts"], source.replaceAll("../../../", "../../"));
  assert.is(test.status, 0, test.output);
});

lint.run();
