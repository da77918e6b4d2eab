/**
 * Whether a client-sent id can name a row at all (ids are PostgreSQL integers). Larger numbers
 * name nothing; checking first keeps them from reaching a query as an out-of-range error.
 */
export const isStorableId = (n: number): boolean => Number.isSafeInteger(n) && n >= -2_147_483_648 && n <= 2_147_483_647;
