/** One numbered schema migration. Versions are unique and applied in order, once. */
export interface Migration { version: number; name: string; sql: string }
