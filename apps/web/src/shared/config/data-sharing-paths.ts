/** Paths of the data-sharing, notifications and activity screens (SPEC §2 shows only frabodanir). */
export const SHARING_PATHS = {
  giveData: '/gev-data',
  requestData: '/bidja-um-data',
  notifications: '/frabodanir',
  activity: '/menu/virksemi',
} as const;
