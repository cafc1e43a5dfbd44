import { sql, type SQL } from 'drizzle-orm';

/*
 * Faroese (and other accented) letters folded to ASCII, so "gudrun" finds Guðrun and "oli"
 * finds Óli: the SQL side of `foldName` in modules/staff/customers-service.ts. Translated before
 * lower(), which folds only ASCII under the C collation. The letters are written into the
 * statement as literals, not sent as parameters, so the console's name search and the trigram
 * index on the folded name (users_name_folded_trgm_idx, ADR 0093) are the same expression and
 * the planner uses the index.
 */
const FOLD_FROM = 'ÁáÀàÂâÄäÅåÍíÌìÎîÏïÓóÒòÔôÖöÕõØøÚúÙùÛûÜüÝýÿÉéÈèÊêËëÐðÇç';
const FOLD_TO = 'AaAaAaAaAaIiIiIiIiOoOoOoOoOoOoUuUuUuUuYyyEeEeEeEeDdCc';

/** `text` folded to ASCII lower case (no quotes in the letters: safe as literals). */
export function folded(text: SQL | SQL.Aliased | { getSQL(): SQL }): SQL {
  return sql`lower(replace(replace(translate(${text}, ${sql.raw(`'${FOLD_FROM}'`)}, ${sql.raw(`'${FOLD_TO}'`)}), 'Æ', 'ae'), 'æ', 'ae'))`;
}

/** The folded full name of the users row `u` (the trigram index's expression, ADR 0093). */
export const foldedNameOfU = folded(sql.raw(`u.firstname || ' ' || u.lastname`));

/**
 * The ids of at most `limit` users (`u`) meeting `condition`, for `… in (…)`. A materialized
 * CTE is planned to read every match, so it reads them on the trigram indexes; it is run only as
 * far as the limit reads. (With the limit in the same query the planner may read `users` in
 * order instead, expecting a common name to match early; a rare one then reads the whole table.)
 */
export function firstUsersWhere(condition: SQL, limit: number): SQL {
  return sql`(with m as materialized (select u.id from users u where ${condition}) select m.id from m limit ${limit})`;
}
