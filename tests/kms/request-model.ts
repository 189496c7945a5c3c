import { h1Of, type EnclaveModel, type Model, type Parsed } from "./request-oracle.js";

/**
 * After a 2xx: what the answer may show (nothing of another enclave) and
 * what the write changed. Returns a complaint, or undefined when the answer
 * is consistent with the model.
 */
export function afterSuccess(model: Model, parsed: Parsed, enclave: string, answer: unknown): string | undefined {
  const e = model.enclaves.get(enclave);
  const p = parsed.params;
  const fields = (answer ?? {}) as Record<string, unknown>;
  const listed = (k: string): string[] => (Array.isArray(fields[k]) ? (fields[k] as string[]) : []);
  const within = (names: string[], known: ReadonlySet<string> | undefined, what: string): string | undefined => {
    const stray = names.filter((n) => !known?.has(n));
    return stray.length === 0 ? undefined : `${what} of no model in enclave ${enclave}: ${stray.join(", ")}`;
  };
  switch (parsed.route) {
    case "/v1/key/list/:pattern":
      return within(listed("names"), e?.keys, "keys");
    case "/v1/policy/list/:pattern":
      return within(listed("names"), new Set(e?.policies.keys()), "policies");
    case "/v1/identity/list/:pattern":
      return within(listed("identities"), new Set(e?.ids.keys()), "identities");
    case "/v1/key/describe/:name":
    case "/v1/key/generate/:name":
    case "/v1/key/encrypt/:name":
    case "/v1/key/decrypt/:name":
    case "/v1/key/hmac/:name":
      return within([p.name ?? ""], e?.keys, "key");
    case "/v1/policy/describe/:name":
    case "/v1/policy/read/:name":
      return within([p.name ?? ""], new Set(e?.policies.keys()), "policy");
    case "/v1/identity/describe/:id":
      return p.id === model.root ? undefined : within([p.id ?? ""], new Set(e?.ids.keys()), "identity");
  }
  return e ? write(model, e, parsed) : enclaveWrite(model, parsed);
}

function enclaveWrite(model: Model, parsed: Parsed): string | undefined {
  if (parsed.route === "/v1/enclave/create/:name") model.enclaves.set(parsed.params.name ?? "", { ids: new Map(), policies: new Map(), keys: new Set() });
  if (parsed.route === "/v1/enclave/delete/:name") model.enclaves.delete(parsed.params.name ?? "");
  return undefined;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

function write(model: Model, e: EnclaveModel, parsed: Parsed): string | undefined {
  const p = parsed.params;
  const b = parsed.body;
  switch (parsed.route) {
    case "/v1/key/create/:name":
    case "/v1/key/import/:name":
      e.keys.add(p.name ?? "");
      return undefined;
    case "/v1/key/delete/:name":
      if (!parsed.hasVersion) e.keys.delete(p.name ?? "");
      return undefined;
    case "/v1/policy/create/:name":
      if (!b) return "a policy was created from a body that is not a JSON object";
      e.policies.set(p.name ?? "", { allow: strings(b.allow), deny: strings(b.deny) });
      return undefined;
    case "/v1/policy/delete/:name":
      e.policies.delete(p.name ?? "");
      for (const id of e.ids.values()) id.policies.delete(p.name ?? "");
      return undefined;
    case "/v1/policy/assign/:name":
    case "/v1/policy/unassign/:name": {
      const id = h1Of(typeof b?.identity === "string" ? b.identity : "");
      if (!id) return "a policy was (un)assigned to something that is not an identity";
      if (parsed.route.includes("/assign/")) e.ids.get(id)?.policies.add(p.name ?? "");
      else e.ids.get(id)?.policies.delete(p.name ?? "");
      return undefined;
    }
    case "/v1/identity/create/:id": {
      if (!b) return "an identity was created from a body that is not a JSON object";
      const policy = typeof b.policy === "string" ? b.policy : "";
      e.ids.set(p.id ?? "", { admin: b.admin === true, policies: new Set(policy === "" ? [] : [policy]) });
      return undefined;
    }
    case "/v1/identity/delete/:id":
      e.ids.delete(p.id ?? "");
      return undefined;
  }
  return enclaveWrite(model, parsed);
}
