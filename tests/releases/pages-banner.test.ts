import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { suite } from "uvu";
import * as assert from "uvu/assert";

// Issue 17, Found 7: `npm start` and the README name the releases page and the landing page.
const gatewayBin = fileURLToPath(new URL("../../app/bin/gateway.js", import.meta.url));
const readme = new URL("../../README.md", import.meta.url);

const banner = suite("npm start banner and README name the pages");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Starts the embedded default as `npm start` does (no KMS, to stay light) and returns its banner. */
async function startBanner(dataDir: string, port: number): Promise<string> {
  const child = spawn(process.execPath, [gatewayBin, "--listen", `127.0.0.1:${port}`, "--data-dir", dataDir, "--kms-listen", "off"], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  try {
    return await new Promise<string>((resolve, reject) => {
      child.stderr.on("data", (b: Buffer) => (err += b.toString()));
      child.stdout.on("data", (b: Buffer) => {
        out += b.toString();
        // The banner is one write; its last line names the files.
        if (/gateway ready[^]*\n {2}files:[^\n]*\n/.test(out)) resolve(out);
      });
      child.once("exit", (code) => reject(new Error(`gateway exited ${String(code)}: ${err}`)));
    });
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
}

banner("should print the landing page and each product's releases page", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "banner-"));
  try {
    const port = await freePort();
    const text = await startBanner(dataDir, port);
    const base = `http://127.0.0.1:${port}`;
    assert.match(text, new RegExp(`pages: +${base}/ `));
    assert.match(text, `${base}/client/releases`);
    assert.match(text, `${base}/server/releases`);
    assert.match(text, `${base}/client/mc/release/`);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

banner("should name the landing page, the releases page and the indexes in the README", async () => {
  const text = await readFile(readme, "utf8");
  assert.match(text, "http://127.0.0.1:8080/client/releases");
  assert.match(text, "http://127.0.0.1:8080/client/mc/release/");
  assert.match(text, "<http://127.0.0.1:8080/>: the download site");
});

banner.run();
