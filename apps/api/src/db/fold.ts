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
