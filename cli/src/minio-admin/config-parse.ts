/**
 * madmin `ParseServerConfigOutput` (parse-config.go): the text of a
 * get-config-kv answer (`subsys[:target] k=v k2="v 2"` lines, each after its
 * `# MINIO_…=…` environment lines) as the list `admin config get --json`
 * prints. A faithful port: the same grouping, the same errors.
 */
export interface ConfigKv {
  key: string;
  value: string;
  envOverride?: { name: string; value: string };
}

export interface SubsysConfig {
  subSystem: string;
  target?: string;
  kv: ConfigKv[] | null;
}

const envLinePrefix = "# MINIO_";
const defaultTarget = "_";

class Group {
  readonly kv: ConfigKv[] = [];
  private readonly index = new Map<string, number>();
  add(c: ConfigKv): void {
    const at = this.index.get(c.key);
    if (at !== undefined) this.kv[at] = c;
    else {
      this.kv.push(c);
      this.index.set(c.key, this.kv.length - 1);
    }
  }
  at(key: string): number | undefined {
    return this.index.get(key);
  }
}

const splitN = (s: string, sep: string, n: number): string[] => {
  const out: string[] = [];
  let rest = s;
  while (out.length < n - 1) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    out.push(rest.slice(0, i));
    rest = rest.slice(i + sep.length);
  }
  out.push(rest);
  return out;
};

function envLine(s: string, subSystem: string, target: string): ConfigKv {
  const ps = splitN(s.slice(2), "=", 2);
  if (ps.length !== 2) throw new Error("expected env var line of the form `# MINIO_...=...`");
  const [name = "", value = ""] = ps;
  const prefix = `MINIO_${subSystem.toUpperCase()}_`;
  if (!name.startsWith(prefix)) throw new Error(`expected env ${name} to have prefix ${prefix}`);
  let configVar = name.slice(prefix.length);
  if (target !== defaultTarget && configVar.endsWith(`_${target}`)) configVar = configVar.slice(0, -(target.length + 1));
  return { key: configVar.toLowerCase(), value: "", envOverride: { name, value } };
}

function configLine(s: string): ConfigKv[] {
  const ps = splitN(s, " ", 2);
  const out: ConfigKv[] = [];
  if (ps.length === 1) return out;
  let text = (ps[1] ?? "").trim();
  while (text.length > 0) {
    const ts = splitN(text, "=", 2);
    const key = (ts[0] ?? "").trim();
    if (key.length === 0 || ts.length === 1) throw new Error("expected config value in the format `key=value`");
    text = ts[1] ?? "";
    let value: string;
    if (text.startsWith('"')) {
      const q = splitN(text.slice(1), '"', 2);
      if (q.length === 1) throw new Error("expected config value in the format `key=value`");
      value = q[0] ?? "";
      text = (q[1] ?? "").trim();
    } else {
      const sp = splitN(text, " ", 2);
      value = sp[0] ?? "";
      text = sp.length === 2 ? (sp[1] ?? "").trim() : "";
    }
    out.push({ key, value });
  }
  return out;
}

export function parseServerConfigOutput(output: string): SubsysConfig[] {
  const lines = output.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const res: SubsysConfig[] = [];
  let current: string[] = [];
  for (const line of lines) {
    if (line.startsWith(envLinePrefix)) {
      current.push(line);
      continue;
    }
    if (line.startsWith("#")) continue;
    current.push(line);
    const pieces = splitN(splitN(line, " ", 2)[0] ?? "", ":", 2);
    const subSystem = pieces[0] ?? "";
    const target = pieces.length === 2 ? (pieces[1] ?? "") : defaultTarget;
    const g = new Group();
    for (const l of current) {
      if (l.startsWith(envLinePrefix)) {
        g.add(envLine(l, subSystem, target));
        continue;
      }
      for (const kv of configLine(l)) {
        const at = g.at(kv.key);
        const existing = at === undefined ? undefined : g.kv[at];
        if (existing !== undefined) existing.value = kv.value;
        else g.add(kv);
      }
    }
    res.push({ subSystem, ...(target !== defaultTarget ? { target } : {}), kv: g.kv.length > 0 ? g.kv : null });
    current = [];
  }
  return res;
}
