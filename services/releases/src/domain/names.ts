import { AppError } from "@mc/shared/errors";

const namePattern = /^[a-z][a-z0-9-]{0,31}$/;

/** Go GOOS tokens we publish for, and the download group each lands in. */
export const osGroups = { linux: "linux", darwin: "macos", windows: "windows" } as const;
export type Os = keyof typeof osGroups;
export type DownloadGroup = (typeof osGroups)[Os];

/** Go GOARCH tokens. */
export const arches = ["386", "amd64", "arm", "arm64", "loong64", "mips64le", "ppc64le", "riscv64", "s390x"] as const;
export type Arch = (typeof arches)[number];

export interface Platform {
  readonly os: Os;
  readonly arch: Arch;
}

export function isName(value: string): boolean {
  return namePattern.test(value);
}

export function checkName(kind: "product" | "component", value: string): string {
  if (!isName(value)) throw new AppError("invalid_argument", `invalid ${kind} '${value}': want ^[a-z][a-z0-9-]{0,31}$`);
  return value;
}

export function isOs(value: string): value is Os {
  return Object.hasOwn(osGroups, value);
}

export function isArch(value: string): value is Arch {
  return (arches as readonly string[]).includes(value);
}

/** `linux-amd64` to a platform, or undefined for unknown tokens. */
export function parsePlatform(folder: string): Platform | undefined {
  const dash = folder.indexOf("-");
  const os = folder.slice(0, dash);
  const arch = folder.slice(dash + 1);
  return dash > 0 && isOs(os) && isArch(arch) ? { os, arch } : undefined;
}

/** The served binary name: `<component>`, or `<component>.exe` on Windows. */
export function binaryName(component: string, os: Os): string {
  return os === "windows" ? `${component}.exe` : component;
}

/** Archive names never carry `.exe` (upstream updaters rely on it). */
export function archiveName(component: string, releaseId: string): string {
  return `${component}.${releaseId}`;
}
