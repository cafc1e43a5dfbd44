-- filled in by issue 33 (hand-written; schema in src/db/schema)
SELECT 1;
