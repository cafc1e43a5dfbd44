import type { SVGProps } from 'react';
import { ALDA_MARK_WAVES } from './splash-markup';

/*
 * Inline SVG icons (no icon font: nothing extra to download, nothing the CSP has to allow).
 * Decorative by default (aria-hidden); give the surrounding control an accessible name.
 */
export type IconProps = SVGProps<SVGSVGElement>;

/** The frame every icon is drawn in: 24×24, 1.8 stroke, decorative. */
export function Icon({ children, className = 'size-6', ...props }: IconProps) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={className}
      {...props}
    >
      {children}
    </svg>
  );
}

export const HomeIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3.5 10.5 12 3.75l8.5 6.75" />
    <path d="M5.5 9v10.25c0 .41.34.75.75.75H10v-5.25c0-.41.34-.75.75-.75h2.5c.41 0 .75.34.75.75V20h3.75c.41 0 .75-.34.75-.75V9" />
  </Icon>
);

export const UserIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="8" r="4" />
    <path d="M4.5 20.25c.9-3.6 3.95-5.75 7.5-5.75s6.6 2.15 7.5 5.75" />
  </Icon>
);

export const MenuIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 7h16M4 12h16M4 17h16" />
  </Icon>
);

export const ChevronLeftIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="m14.5 5.5-6.5 6.5 6.5 6.5" />
  </Icon>
);

export const ChevronRightIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="m9.5 5.5 6.5 6.5-6.5 6.5" />
  </Icon>
);

export const GlobeIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M3.5 12h17M12 3.5c2.3 2.4 3.5 5.2 3.5 8.5s-1.2 6.1-3.5 8.5c-2.3-2.4-3.5-5.2-3.5-8.5S9.7 5.9 12 3.5Z" />
  </Icon>
);

export const DocumentIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M14 3.5H7.25c-.97 0-1.75.78-1.75 1.75v13.5c0 .97.78 1.75 1.75 1.75h9.5c.97 0 1.75-.78 1.75-1.75V8L14 3.5Z" />
    <path d="M14 3.5V8h4.5M8.75 12.5h6.5M8.75 16h4.5" />
  </Icon>
);

export const ShieldIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M12 3.25 5 6v5.5c0 4.2 2.9 7.9 7 9.25 4.1-1.35 7-5.05 7-9.25V6l-7-2.75Z" />
    <path d="m9 12 2.1 2.1L15.25 10" />
  </Icon>
);

export const LogoutIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M14 4.5H6.75C5.78 4.5 5 5.28 5 6.25v11.5c0 .97.78 1.75 1.75 1.75H14" />
    <path d="M10.5 12h10M17 8.5l3.5 3.5-3.5 3.5" />
  </Icon>
);

export const InfoIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M12 11v5.5M12 7.75v.01" />
  </Icon>
);

export const WarningIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M10.3 4.6 3.2 17.1c-.76 1.33.2 2.9 1.7 2.9h14.2c1.5 0 2.46-1.57 1.7-2.9L13.7 4.6c-.75-1.3-2.65-1.3-3.4 0Z" />
    <path d="M12 9.5v4.25M12 16.75v.01" />
  </Icon>
);

export const ErrorIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="8.5" />
    <path d="m9.25 9.25 5.5 5.5M14.75 9.25l-5.5 5.5" />
  </Icon>
);

export const CheckIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="m5 12.5 4.5 4.5L19 7.5" />
  </Icon>
);

export const CloseIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M6.5 6.5l11 11M17.5 6.5l-11 11" />
  </Icon>
);

export const EyeIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M2.75 12S6 5.75 12 5.75 21.25 12 21.25 12 18 18.25 12 18.25 2.75 12 2.75 12Z" />
    <circle cx="12" cy="12" r="3" />
  </Icon>
);

export const EyeOffIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 4l16 16" />
    <path d="M10.1 6c.6-.16 1.24-.25 1.9-.25 6 0 9.25 6.25 9.25 6.25a16 16 0 0 1-2.9 3.75M6.6 7.6C4.1 9.3 2.75 12 2.75 12S6 18.25 12 18.25c1.6 0 3-.45 4.2-1.15" />
    <path d="M9.9 9.9a3 3 0 0 0 4.2 4.2" />
  </Icon>
);

export const PhoneIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="6.5" y="2.75" width="11" height="18.5" rx="2.25" />
    <path d="M10.5 18h3" />
  </Icon>
);

export const MailIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3.25" y="5.5" width="17.5" height="13" rx="2" />
    <path d="m4 7 8 6 8-6" />
  </Icon>
);

export const CallIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M5.5 3.75h3l1.5 4-2 1.25a11 11 0 0 0 7 7l1.25-2 4 1.5v3c0 .83-.67 1.5-1.5 1.5C10.55 20 4 13.45 4 5.25c0-.83.67-1.5 1.5-1.5Z" />
  </Icon>
);

export const MessageIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4.5 5.25h15c.69 0 1.25.56 1.25 1.25v9.25c0 .69-.56 1.25-1.25 1.25H10l-4.5 3.5V17H4.5c-.69 0-1.25-.56-1.25-1.25V6.5c0-.69.56-1.25 1.25-1.25Z" />
  </Icon>
);

/** A half-filled circle: light or dark (the theme). */
export const ThemeIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="8.25" />
    <path d="M12 3.75v16.5a8.25 8.25 0 0 0 0-16.5Z" fill="currentColor" />
  </Icon>
);

export const DataIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M5 19v-3M9.67 19v-6.5M14.33 19V9M19 19V5" />
  </Icon>
);

export const PlaneIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M10.5 13.5 4 11.75l1.25-1.5 6.25.5L16 5.5c.9-.9 2.35-1 3 0 .6.65.5 2.1-.4 3l-5.25 4.5.5 6.25-1.5 1.25-1.75-6.5-3.1 2.6.1 2.15-1.1 1-1.2-2.9-2.9-1.2 1-1.1 2.15.1 2.6-3.1Z" />
  </Icon>
);

export const ReceiptIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M6 3.5h12v17l-2-1.25-2 1.25-2-1.25-2 1.25-2-1.25-2 1.25v-17Z" />
    <path d="M9 8.5h6M9 12h6M9 15.5h3.5" />
  </Icon>
);

export const RefreshIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M19.5 12a7.5 7.5 0 1 1-2.2-5.3" />
    <path d="M19.5 4.5v4h-4" />
  </Icon>
);

export const SparkIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M12 3.5l1.9 5.1 5.1 1.9-5.1 1.9L12 17.5l-1.9-5.1L5 10.5l5.1-1.9L12 3.5Z" />
    <path d="M18.5 16.5l.7 1.8 1.8.7-1.8.7-.7 1.8-.7-1.8-1.8-.7 1.8-.7.7-1.8Z" />
  </Icon>
);

export const PencilIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M15.5 5.5l3 3M4.5 19.5l.9-3.9L16 5a2.1 2.1 0 0 1 3 3L8.4 18.6l-3.9.9Z" />
  </Icon>
);

export const KeyIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="8" cy="15" r="4.25" />
    <path d="M11 12l8.5-8.5M16.5 6.5l2.5 2.5M14.5 8.5l2 2" />
  </Icon>
);

export const TrashIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4.5 6.5h15M9.5 6.5V4.75c0-.41.34-.75.75-.75h3.5c.41 0 .75.34.75.75V6.5" />
    <path d="M6.5 6.5l.85 12.1c.06.8.72 1.4 1.5 1.4h6.3c.78 0 1.44-.6 1.5-1.4l.85-12.1M10 10.5v5.5M14 10.5v5.5" />
  </Icon>
);

/** The Alda mark: two waves (alda is Faroese for wave), drawn in the current colour. */
export function AldaMark({ className = 'size-8', ...props }: IconProps) {
  return (
    <svg
      viewBox="0 0 48 48"
      fill="none"
      stroke="currentColor"
      strokeWidth={4.5}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={className}
      {...props}
    >
      {ALDA_MARK_WAVES.map((wave) => (
        <path key={wave.d} d={wave.d} opacity={'opacity' in wave ? wave.opacity : undefined} />
      ))}
    </svg>
  );
}

export function AppleLogo({ className = 'size-6', ...props }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className={className} {...props}>
      <path
        fill="currentColor"
        d="M16.37 12.54c-.02-2.3 1.88-3.4 1.96-3.46-1.07-1.56-2.73-1.78-3.32-1.8-1.41-.14-2.76.83-3.47.83-.72 0-1.82-.81-2.99-.79-1.54.02-2.96.9-3.75 2.27-1.6 2.78-.41 6.9 1.15 9.15.76 1.1 1.67 2.34 2.86 2.3 1.15-.05 1.58-.74 2.97-.74 1.38 0 1.77.74 2.98.72 1.23-.02 2.01-1.12 2.76-2.23.87-1.28 1.23-2.52 1.25-2.58-.03-.01-2.38-.92-2.4-3.67ZM14.1 5.8c.63-.77 1.06-1.83.94-2.9-.91.04-2.01.61-2.66 1.37-.58.67-1.1 1.76-.96 2.8 1.01.08 2.05-.52 2.68-1.27Z"
      />
    </svg>
  );
}

export function GooglePlayLogo({ className = 'size-6', ...props }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className={className} {...props}>
      <path
        fill="#34a853"
        d="M4.1 2.6 13.7 12l-9.6 9.4c-.35-.2-.6-.6-.6-1.1V3.7c0-.5.25-.9.6-1.1Z"
      />
      <path
        fill="#fbbc04"
        d="m16.8 15.1-3.1-3.1 3.1-3.1 3.6 2.05c.95.55.95 1.55 0 2.1l-3.6 2.05Z"
      />
      <path fill="#ea4335" d="M13.7 12 4.1 21.4c.35.2.8.2 1.25-.05l11.45-6.25-3.1-3.1Z" />
      <path fill="#4285f4" d="M13.7 12 16.8 8.9 5.35 2.65C4.9 2.4 4.45 2.4 4.1 2.6l9.6 9.4Z" />
    </svg>
  );
}
