const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids of rows with uuid keys: anything else cannot exist (and must not reach a uuid column). */
export const isUuid = (value: string) => UUID.test(value);
