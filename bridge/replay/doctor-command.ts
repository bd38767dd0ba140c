export async function doctorCommand(_argv: string[], _out: (t: string) => void, err: (t: string) => void): Promise<number> { err("doctor: not built yet\n"); return 2; }
