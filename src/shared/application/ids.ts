/** The largest value of a PostgreSQL `integer` column. */
export const INT4_MAX = 2_147_483_647;

/**
 * Whether a client-sent id can name a row at all (ids are PostgreSQL integers). Larger numbers
 * name nothing; checking first keeps them from reaching a query as an out-of-range error.
 */
export const isStorableId = (n: number): boolean => Number.isSafeInteger(n) && n >= -INT4_MAX - 1 && n <= INT4_MAX;

/**
 * The ids of a list that can name a row: the one rule for client-sent ids at the id columns.
 * Repositories look up only these, so an id beyond the columns reads as one that names nothing
 * and every endpoint gives its own "does not exist" answer.
 */
export const storableIds = (ids: readonly number[]): number[] => ids.filter(isStorableId);
