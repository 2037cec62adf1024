// Command-line flags of the bench scripts: `--name value` pairs, numbers checked.
export function flagReader(argv: string[]) {
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const num = (name: string, fallback: number): number => {
    const v = value(name);
    const n = v === undefined ? fallback : Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number, got ${v}`);
    return n;
  };
  return { value, num };
}
