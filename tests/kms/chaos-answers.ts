// Every failed attempt of a key create as the client library saw it (non-2xx
// answers and network errors), including the ones it retried or failed over
// from and so never surfaced: a message naming a NATS subject is a leak even
// when a later attempt succeeded. Read from node:http's diagnostics channels,
// so the library runs unchanged.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { ClientRequest, IncomingMessage } from "node:http";
import type { Answer } from "./chaos-checks.js";

export interface AnswerLog {
  /** The failed attempts seen so far for `key`, oldest first; empties its entry. */
  take(key: string): Answer[];
  /** HOST:PORT of the node whose 2xx answered `key`, if one did; empties its entry. */
  answeredBy(key: string): string | undefined;
  stop(): void;
}

const responses = "http.client.response.finish";
const errors = "http.client.request.error";
const createPath = /^\/v1\/key\/create\/([^/?]+)/;

export function observeCreateAnswers(): AnswerLog {
  const byKey = new Map<string, Answer[]>();
  const hosts = new Map<string, string>();
  const keyOf = (request: ClientRequest): string | undefined => {
    const key = request.method === "POST" ? createPath.exec(request.path)?.[1] : undefined;
    return key === undefined ? undefined : decodeURIComponent(key);
  };
  const add = (name: string, answer: Answer): void => {
    byKey.set(name, [...(byKey.get(name) ?? []), answer]);
  };
  const onError = (m: unknown): void => {
    const { request, error } = m as { request: ClientRequest; error: Error };
    const name = keyOf(request);
    if (name !== undefined) add(name, { status: 0, message: error.message });
  };
  const onResponse = (m: unknown): void => {
    const { request, response } = m as { request: ClientRequest; response: IncomingMessage };
    const name = keyOf(request);
    const status = response.statusCode ?? 0;
    if (name === undefined) return;
    if (status >= 200 && status < 300) {
      const host = request.getHeader("host");
      if (typeof host === "string") hosts.set(name, host);
      return;
    }
    const chunks: Buffer[] = [];
    response.on("data", (c: Buffer) => chunks.push(c));
    // Registered before the library's own listener: this runs first, so the answer is logged before the create settles.
    response.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let message = text;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? text;
      } catch {
        // Not JSON: keep the text.
      }
      add(name, { status, message });
    });
  };
  subscribe(responses, onResponse);
  subscribe(errors, onError);
  return {
    take(key) {
      const answers = byKey.get(key) ?? [];
      byKey.delete(key);
      return answers;
    },
    answeredBy(key) {
      const host = hosts.get(key);
      hosts.delete(key);
      return host;
    },
    stop() {
      unsubscribe(responses, onResponse);
      unsubscribe(errors, onError);
    },
  };
}
