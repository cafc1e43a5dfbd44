import { Icon, type IconProps } from './icons';

/*
 * Icons of the account screens (home, family, manage, orders, plans), drawn in the same frame as
 * icons.tsx: 24×24, 1.8 stroke, decorative unless the surrounding control names them.
 */

export const FamilyIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="9" cy="8" r="3.25" />
    <path d="M3 19.25c.7-3 3.1-4.75 6-4.75s5.3 1.75 6 4.75" />
    <circle cx="17" cy="9.5" r="2.5" />
    <path d="M16.5 14.6c2.3.1 4 1.5 4.5 3.9" />
  </Icon>
);

export const ClockIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M12 7.5V12l3 2" />
  </Icon>
);

export const BagIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M5.5 8h13l-1 11.25c-.05.7-.63 1.25-1.33 1.25H7.83c-.7 0-1.28-.55-1.33-1.25L5.5 8Z" />
    <path d="M9 10.5V7a3 3 0 0 1 6 0v3.5" />
  </Icon>
);

export const LayersIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="m12 4 8.5 4.5L12 13 3.5 8.5 12 4Z" />
    <path d="m3.5 12.5 8.5 4.5 8.5-4.5M3.5 16.25 12 20.75l8.5-4.5" />
  </Icon>
);

export const SimIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M8.5 3.5h6.25L19 7.75V19c0 .83-.67 1.5-1.5 1.5h-9c-.83 0-1.5-.67-1.5-1.5V5c0-.83.67-1.5 1.5-1.5Z" />
    <rect x="9.5" y="11" width="5" height="6" rx="1" />
  </Icon>
);

export const SettingsIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 7h9M17 7h3M4 17h3M11 17h9" />
    <circle cx="15" cy="7" r="2" />
    <circle cx="9" cy="17" r="2" />
  </Icon>
);

export const GiftIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="4" y="8.5" width="16" height="4" rx="1" />
    <path d="M5.5 12.5v6.75c0 .41.34.75.75.75h11.5c.41 0 .75-.34.75-.75V12.5M12 8.5V20" />
    <path d="M12 8.5S10.9 4 8.5 4C7.1 4 6.5 5 6.5 6s.9 2.5 5.5 2.5ZM12 8.5S13.1 4 15.5 4c1.4 0 2 1 2 2s-.9 2.5-5.5 2.5Z" />
  </Icon>
);

export const WalletIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4.5 7.5v10.75c0 .69.56 1.25 1.25 1.25h12.5c.69 0 1.25-.56 1.25-1.25V9.75c0-.69-.56-1.25-1.25-1.25H5.75A1.25 1.25 0 0 1 4.5 7.25c0-.69.56-1.25 1.25-1.25H16" />
    <circle cx="15.75" cy="14" r="1" fill="currentColor" stroke="none" />
  </Icon>
);

export const ChartIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 4v15.25c0 .41.34.75.75.75H20" />
    <path d="M8.5 16.5v-4M12.5 16.5V8M16.5 16.5v-6" />
  </Icon>
);
