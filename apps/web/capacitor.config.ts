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
  },
};

export default config;
