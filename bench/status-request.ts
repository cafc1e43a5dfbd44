import { APP_VERSION } from '../packages/contract/src/constants';

/** What the app sends at every resume (POST /api/status): its version and the device. */
export const STATUS_REQUEST = {
  currentVersion: APP_VERSION,
  deviceMeta: {
    name: 'Pixel 8',
    platform: 'android',
    osVersion: '15',
    model: 'Pixel 8',
    isVirtual: false,
  },
};
