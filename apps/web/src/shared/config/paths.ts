/** Paths of SPEC §2 that this build registers (later issues add theirs). */
export const PATHS = {
  home: '/',
  welcome: '/valkomin',
  login: '/rita-inn',
  loginEmail: '/rita-inn/vid-telduposti',
  loginPhone: '/rita-inn/vid-telefonnummari',
  forgotPassword: '/gloymt-loyniord',
  register: '/stovna-brukara',
  menu: '/menu',
  receipts: '/menu/kvittanir',
  terms: '/menu/treytir',
  privacy: '/menu/privatlivspolitikkur',
  language: '/menu/mal',
  profile: '/min-brukari',
} as const;
