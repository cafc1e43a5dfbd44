/// <reference types="@capacitor/push-notifications" />
import type { CapacitorConfig } from '@capacitor/cli';

const config: CapacitorConfig = {
  appId: 'fo.alda.selfcare',
  appName: 'Alda',
  webDir: 'dist',
  plugins: {
    SplashScreen: {
      // The start-up sequence (src/app/startup.ts) hides the splash once the app is mounted.
      launchAutoHide: false,
      backgroundColor: '#0b2e3f',
      showSpinner: false,
    },
    PushNotifications: {
      // A push that arrives while the app is open is shown all the same (banner, sound, badge):
      // without 'alert' iOS and the plugin on Android hand it only to the app, which draws
      // nothing for it, and a security push would go unseen (ADR 0096).
      presentationOptions: ['badge', 'sound', 'alert'],
    },
  },
};

export default config;
