/** Where `moogle serve` keeps its SQLite file unless told otherwise (a module with no drivers). */
export const DEFAULT_SQLITE_PATH = './moogle-data/moogle.db';
