/** Paths of SPEC §2 that this build registers (later issues add theirs). */
export const PATHS = {
  home: '/',
  welcome: '/valkomin',
  login: '/rita-inn',
  loginEmail: '/rita-inn/vid-telduposti',
  loginPhone: '/rita-inn/vid-telefonnummari',
  loginPin: '/rita-inn/pin',
  forgotPassword: '/gloymt-loyniord',
  resetPassword: '/nytt-loyniord',
  register: '/stovna-brukara',
  menu: '/menu',
  receipts: '/menu/kvittanir',
  terms: '/menu/treytir',
  privacy: '/menu/privatlivspolitikkur',
  language: '/menu/mal',
  profile: '/min-brukari',
  /** Not shown in SPEC §2 (only /min-brukari is); ours, under the profile. */
  profileEdit: '/min-brukari/broyt',
  profilePassword: '/min-brukari/loyniord',
} as const;
