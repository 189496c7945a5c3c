// The peer of one keyspace size (a child process): a single etcd 3.4 node
// loaded with N keys of the KMS's per-key size (146 bytes of sealed key
// material), then stopped and started again: time to answer a read, and its
// RSS per key against the empty node.
import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../tests/harness/free-port.js";
import { startProcess, type Started } from "../../tests/harness/processes.js";
import { waitFor } from "../../tests/harness/wait-for.js";
import { memoryOf, timed } from "./growth.js";

const size = Number(process.argv[2] ?? 10_000);

function post(url: string, body: object): Promise<number> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { "content-type": "application/json", "content-length": Buffer.byteLength(text) } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(text);
  });
}

async function start(dir: string, port: number, peer: number): Promise<Started> {
  const url = `http://127.0.0.1:${port}`;
  const proc = startProcess("etcd", [
    "--name=e1", `--data-dir=${dir}`, `--listen-client-urls=${url}`, `--advertise-client-urls=${url}`,
    `--listen-peer-urls=http://127.0.0.1:${peer}`, `--initial-advertise-peer-urls=http://127.0.0.1:${peer}`, `--initial-cluster=e1=http://127.0.0.1:${peer}`,
    "--max-txn-ops=1000", "--quota-backend-bytes=8589934592", "--log-level=error",
  ]);
  const probe = { key: Buffer.from("probe").toString("base64") };
  await waitFor(async () => (await post(`${url}/v3/kv/range`, probe)) === 200, { what: "etcd up", timeoutMs: 300_000, intervalMs: 10 });
  return proc;
}

const dir = await mkdtemp(join(tmpdir(), "bench-scale-etcd-"));
try {
  const port = await freePort();
  const peer = await freePort();
  const first = await timed(() => start(join(dir, "data"), port, peer));
  const emptyRssKiB = (await memoryOf(first.value.child.pid ?? 0)).rssKiB;
  const value = Buffer.alloc(146, 7).toString("base64");
  const load = await timed(async () => {
    for (let i = 0; i < size; i += 1000) {
      const puts = Array.from({ length: Math.min(1000, size - i) }, (_, j) => ({ requestPut: { key: Buffer.from(`tenant-${String(i + j).padStart(7, "0")}`).toString("base64"), value } }));
      const status = await post(`http://127.0.0.1:${port}/v3/kv/txn`, { success: puts });
      if (status !== 200) throw new Error(`etcd txn: ${status}`);
    }
  });
  await first.value.stop();
  const again = await timed(() => start(join(dir, "data"), port, peer));
  const atStart = await memoryOf(again.value.child.pid ?? 0);
  await again.value.stop();
  const result = { keys: size, loadMs: load.ms, emptyStartMs: first.ms, startMs: again.ms, bytesPerKey: ((atStart.rssKiB - emptyRssKiB) * 1024) / size, rssMiB: atStart.rssKiB / 1024 };
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
