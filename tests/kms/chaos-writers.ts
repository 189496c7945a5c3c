// Writers for the chaos test: each creates keys under names only it uses
// (`w3-000123`), once each, through the real client library with its own
// retries and failover, and records exactly how every create ended.
import { setTimeout as delay } from "node:timers/promises";
import { KmsClientError, type KmsClient } from "@mc/kms";
import type { AnswerLog } from "./chaos-answers.js";
import type { Outcome, Result } from "./chaos-checks.js";

export interface Writers {
  /** Everything recorded so far (grows while they run). */
  readonly outcomes: readonly Outcome[];
  /** Asks every writer to stop after its current create; resolves once all have. */
  stop(): Promise<Outcome[]>;
}

export const keyName = (writer: number, seq: number): string => `w${writer}-${String(seq).padStart(6, "0")}`;

/** How a create ended: the client throws KmsClientError for an HTTP answer, anything else is its own network error. */
export async function createOnce(client: KmsClient, name: string): Promise<Result> {
  try {
    await client.createKey(name);
    return { kind: "ok" };
  } catch (err) {
    if (err instanceof KmsClientError) return { kind: "http", status: err.status, message: err.message };
    return { kind: "network", message: err instanceof Error ? err.message : String(err) };
  }
}

/** One writer per client, `pauseMs` between creates so the 2-core machine stays usable; `answers` adds what each attempt was told. */
export function startWriters(clients: readonly KmsClient[], answers?: AnswerLog, pauseMs = 15): Writers {
  const outcomes: Outcome[] = [];
  let running = true;
  const loops = clients.map(async (client, writer) => {
    for (let seq = 0; running; seq++) {
      const key = keyName(writer, seq);
      const startedAt = Date.now();
      const result = await createOnce(client, key);
      const answeredBy = answers?.answeredBy(key);
      outcomes.push({ writer, key, startedAt, endedAt: Date.now(), result, ...(answers ? { answers: answers.take(key) } : {}), ...(answeredBy ? { answeredBy } : {}) });
      await delay(pauseMs);
    }
  });
  return {
    outcomes,
    async stop() {
      running = false;
      await Promise.all(loops);
      return outcomes;
    },
  };
}
