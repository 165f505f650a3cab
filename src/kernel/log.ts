/** Log levels in increasing severity. */
export type Level = 'debug' | 'info' | 'warn' | 'error';
const RANK: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Structured JSON-lines logger. Never pass secrets or tokens in `fields`. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

/** Creates a logger writing JSON lines to stderr at or above `level`. */
export function createLogger(level: Level = 'info', base: Record<string, unknown> = {}): Logger {
  const write = (lvl: Level, msg: string, fields?: Record<string, unknown>) => {
    if (RANK[lvl] < RANK[level]) return;
    process.stderr.write(JSON.stringify({ t: new Date().toISOString(), level: lvl, msg, ...base, ...fields }) + '\n');
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (f) => createLogger(level, { ...base, ...f }),
  };
}
