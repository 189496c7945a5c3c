import { AppError } from "@mc/shared/errors";
import { authorize, type Caller } from "./authz.js";
import { associatedData, decodeCiphertext, encodeCiphertext, nonceBytes, notAuthentic } from "./ciphertext.js";
import { checkName, matchingNames, pageOfSorted, type Page } from "./names.js";
import type { KmsDeps } from "./ports.js";
import { proposeOnce } from "./propose-once.js";
import { invalidBody } from "./results.js";
import type { Enclave, Key, KeyVersion, SealedMaterial } from "./state.js";

export const algorithm = "XCHACHA20-POLY1305";

export interface KeyDescription {
  readonly name: string;
  readonly version: number;
  readonly versions: readonly number[];
  readonly algorithm: string;
  readonly createdAt: string;
  readonly createdBy: string;
}

interface Unsealed {
  readonly key: Uint8Array;
  readonly hmacKey: Uint8Array;
}

function checkAlgorithm(a: string | undefined): void {
  if (a !== undefined && a !== "" && a !== algorithm) throw new AppError("invalid_argument", `algorithm '${a}' is not supported`);
}

function keyOf(enclave: Enclave | undefined, name: string): Key {
  const key = enclave?.keys.get(name);
  if (!key) throw new AppError("not_found", "key does not exist");
  return key;
}

function latest(key: Key): KeyVersion {
  let best: KeyVersion | undefined;
  for (const v of key.versions.values()) if (!best || v.version > best.version) best = v;
  if (!best) throw new AppError("not_found", "key does not exist");
  return best;
}

/** Key use cases: management through the command sink, crypto on the local state. */
export function createKeyOps(deps: KmsDeps) {
  const { crypto } = deps;
  // Unsealing is an AEAD open per request; caching by the (immutable) material
  // object keeps the hot path to one encryption.
  const cache = new WeakMap<SealedMaterial, Unsealed>();
  const unsealed = (m: SealedMaterial): Unsealed => {
    let u = cache.get(m);
    if (!u) {
      u = { key: crypto.unseal(m.sealedKey), hmacKey: crypto.unseal(m.sealedHmacKey) };
      cache.set(m, u);
    }
    return u;
  };
  const material = (key: Uint8Array): SealedMaterial => ({ sealedKey: crypto.seal(key), sealedHmacKey: crypto.seal(crypto.random(32)) });
  const enter = (caller: Caller, name: string): Enclave | undefined => {
    checkName("key", name);
    return authorize(deps.state(), deps.rootIdentity, caller, "policy");
  };
  const encryptWith = (enclave: string, key: Key, plaintext: Uint8Array, context: Uint8Array) => {
    const v = latest(key);
    const nonce = crypto.random(nonceBytes);
    const sealed = crypto.aeadEncrypt(unsealed(v.material).key, nonce, plaintext, associatedData(v.version, enclave, key.name, context));
    return { ciphertext: encodeCiphertext(v.version, nonce, sealed), version: v.version };
  };

  return {
    async create(caller: Caller, name: string, opts: { algorithm?: string; addVersion?: boolean }): Promise<number> {
      enter(caller, name);
      checkAlgorithm(opts.algorithm);
      const payload = opts.addVersion
        ? { kind: "addKeyVersion" as const, enclave: caller.enclave, name, material: material(crypto.random(32)) }
        : { kind: "createKey" as const, enclave: caller.enclave, name, algorithm, material: material(crypto.random(32)) };
      return (await proposeOnce(deps, caller, payload)).version ?? 1;
    },
    async import(caller: Caller, name: string, key: Uint8Array, alg: string | undefined): Promise<void> {
      enter(caller, name);
      checkAlgorithm(alg);
      if (key.length !== 32) throw new AppError("invalid_argument", "invalid key size");
      await proposeOnce(deps, caller, { kind: "importKey", enclave: caller.enclave, name, algorithm, material: material(key) });
    },
    describe(caller: Caller, name: string, version: number | undefined): KeyDescription {
      const key = keyOf(enter(caller, name), name);
      const v = version === undefined ? latest(key) : key.versions.get(version);
      if (!v) throw new AppError("not_found", "key version does not exist");
      const versions = [...key.versions.keys()].sort((a, b) => a - b);
      return { name, version: v.version, versions, algorithm: key.algorithm, createdAt: v.createdAt, createdBy: v.createdBy };
    },
    list(caller: Caller, pattern: string, continueAt: string, limit: number): Page {
      const enclave = authorize(deps.state(), deps.rootIdentity, caller, "policy");
      return enclave ? pageOfSorted(enclave.keys.names, pattern, continueAt, limit) : { items: [], continueAt: "" };
    },
    /** Every matching name from `continueAt`, a slice at a time, read as it is consumed (authorised at the call). */
    names(caller: Caller, pattern: string, continueAt: string, slice?: number): Iterable<string[]> {
      const enclave = authorize(deps.state(), deps.rootIdentity, caller, "policy");
      return enclave ? matchingNames(enclave.keys.names, pattern, continueAt, slice) : [];
    },
    async delete(caller: Caller, name: string, version: number | undefined): Promise<void> {
      const enclave = enter(caller, name);
      const payload = version === undefined ? { kind: "deleteKey" as const, enclave: caller.enclave, name } : { kind: "deleteKeyVersion" as const, enclave: caller.enclave, name, version };
      await proposeOnce(deps, caller, payload, () => {
        const key = keyOf(enclave, name);
        if (version !== undefined && !key.versions.has(version)) throw new AppError("not_found", "key version does not exist");
      });
    },
    generate(caller: Caller, name: string, context: Uint8Array, length: number) {
      const key = keyOf(enter(caller, name), name);
      if (!Number.isInteger(length) || length < 1 || length > 1024) throw invalidBody();
      const plaintext = crypto.random(length);
      return { plaintext, ...encryptWith(caller.enclave, key, plaintext, context) };
    },
    encrypt(caller: Caller, name: string, plaintext: Uint8Array, context: Uint8Array) {
      return encryptWith(caller.enclave, keyOf(enter(caller, name), name), plaintext, context);
    },
    decrypt(caller: Caller, name: string, ciphertext: Uint8Array, context: Uint8Array) {
      const key = keyOf(enter(caller, name), name);
      const parsed = decodeCiphertext(ciphertext);
      const v = key.versions.get(parsed.version);
      if (!v) throw notAuthentic();
      const ad = associatedData(v.version, caller.enclave, name, context);
      return { plaintext: crypto.aeadDecrypt(unsealed(v.material).key, parsed.nonce, parsed.sealed, ad), version: v.version };
    },
    hmac(caller: Caller, name: string, message: Uint8Array) {
      const v = latest(keyOf(enter(caller, name), name));
      return { hmac: crypto.hmacSha256(unsealed(v.material).hmacKey, message), version: v.version };
    },
  };
}

export type KeyOps = ReturnType<typeof createKeyOps>;
