import { KeyService } from "../../../gen/kms/v1/key_pb.js";
import { optBool, optBytes, optInt, optString, queryInt, reqBytes } from "./body.js";
import { allNames, listResult, streamedList, type ListResult } from "./list-answer.js";
import { mapped, restJson, unary, type KmsOperation } from "./operation.js";
import { at, body, opt, pageQuery, stale } from "./rest-in.js";

const k = KeyService.method;
const none = new Uint8Array(0);
/** Names per slice of an unlimited key list: up to this many answer in one body, as before. */
const listSlice = 1000;

/** `/v1/key/...` (contract §3, §4): kms.v1.KeyService. */
export const keyOperations: readonly KmsOperation[] = [
  unary({
    rpc: k.createKey, path: "/v1/key/create/:name", param: "name", read: "fresh", changes: true,
    rest: {
      method: "POST",
      out: "empty",
      in: (req) => {
        const b = body(req, true);
        return { name: at(req, "name"), algorithm: optString(b, "algorithm") ?? "", addVersion: optBool(b, "add_version") ?? false };
      },
    },
    run: async ({ kms }, c, r) => ({ version: await kms.keys.create(c, r.name, { algorithm: r.algorithm, addVersion: r.addVersion }) }),
  }),
  unary({
    rpc: k.importKey, path: "/v1/key/import/:name", param: "name", read: "fresh", changes: true,
    rest: {
      method: "POST",
      out: "empty",
      in: (req) => {
        const b = body(req);
        return { name: at(req, "name"), key: reqBytes(b, "key"), algorithm: optString(b, "algorithm") ?? "" };
      },
    },
    run: async ({ kms }, c, r) => {
      await kms.keys.import(c, r.name, r.key, r.algorithm);
      return {};
    },
  }),
  unary({
    rpc: k.describeKey, path: "/v1/key/describe/:name", param: "name", read: "linearizable",
    rest: { method: "GET", in: (req) => ({ name: at(req, "name"), ...opt("version", queryInt(req.query, "version")), stale: stale(req) }) },
    run: ({ kms }, c, r) => {
      const d = kms.keys.describe(c, r.name, r.version);
      return { ...d, versions: [...d.versions] };
    },
  }),
  mapped({
    rpc: k.listKeys, path: "/v1/key/list/:pattern", param: "pattern", read: "linearizable",
    rest: {
      method: "GET",
      in: (req) => ({ pattern: at(req, "pattern"), ...pageQuery(req) }),
      out: (r: ListResult) => (r.kind === "walk" ? streamedList(r) : restJson(k.listKeys.output, { names: [...r.names], continueAt: r.continueAt })),
    },
    run: ({ kms }, c, r): ListResult => {
      if (r.limit > 0) {
        const page = kms.keys.list(c, r.pattern, r.continueAt, r.limit);
        return { kind: "page", names: page.items, continueAt: page.continueAt };
      }
      // No limit: every name, streamed past one slice (issue 26: never one unbounded body).
      return listResult(kms.keys.names(c, r.pattern, r.continueAt, listSlice), listSlice);
    },
    toRpc: (r) => (r.kind === "page" ? { names: [...r.names], continueAt: r.continueAt } : { names: allNames(r), continueAt: "" }),
  }),
  unary({
    rpc: k.deleteKey, path: "/v1/key/delete/:name", param: "name", read: "fresh", changes: true,
    rest: { method: "DELETE", out: "empty", in: (req) => ({ name: at(req, "name"), ...opt("version", queryInt(req.query, "version")) }) },
    run: async ({ kms }, c, r) => {
      await kms.keys.delete(c, r.name, r.version);
      return {};
    },
  }),
  unary({
    rpc: k.generate, path: "/v1/key/generate/:name", param: "name", read: "fresh",
    rest: {
      method: "POST",
      in: (req) => {
        const b = body(req, true);
        return { name: at(req, "name"), context: optBytes(b, "context") ?? none, ...opt("length", optInt(b, "length")) };
      },
    },
    run: ({ kms }, c, r) => kms.keys.generate(c, r.name, r.context, r.length ?? 32),
  }),
  unary({
    rpc: k.encrypt, path: "/v1/key/encrypt/:name", param: "name", read: "fresh",
    rest: {
      method: "POST",
      in: (req) => {
        const b = body(req);
        return { name: at(req, "name"), plaintext: reqBytes(b, "plaintext"), context: optBytes(b, "context") ?? none };
      },
    },
    run: ({ kms }, c, r) => kms.keys.encrypt(c, r.name, r.plaintext, r.context),
  }),
  unary({
    rpc: k.decrypt, path: "/v1/key/decrypt/:name", param: "name", read: "fresh",
    rest: {
      method: "POST",
      in: (req) => {
        const b = body(req);
        return { name: at(req, "name"), ciphertext: reqBytes(b, "ciphertext"), context: optBytes(b, "context") ?? none };
      },
    },
    run: ({ kms }, c, r) => kms.keys.decrypt(c, r.name, r.ciphertext, r.context),
  }),
  unary({
    rpc: k.hmac, path: "/v1/key/hmac/:name", param: "name", read: "fresh",
    rest: { method: "POST", in: (req) => ({ name: at(req, "name"), message: reqBytes(body(req), "message") }) },
    run: ({ kms }, c, r) => kms.keys.hmac(c, r.name, r.message),
  }),
];
