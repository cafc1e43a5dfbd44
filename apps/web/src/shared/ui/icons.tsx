import type { ComponentType, SVGProps } from 'react';
// One module per icon, not the 'lucide-react' index: the index is in the entry's static imports
// (screen-chunks.ts puts those in the shell chunk), and through it every icon any screen uses
// went into the initial JS (issue 45). The calls below are pure, so an icon no screen shows is
// left out.
import Check from 'lucide-react/icons/check';
import ChevronLeft from 'lucide-react/icons/chevron-left';
import ChevronRight from 'lucide-react/icons/chevron-right';
import CircleX from 'lucide-react/icons/circle-x';
import Eye from 'lucide-react/icons/eye';
import EyeOff from 'lucide-react/icons/eye-off';
import FileText from 'lucide-react/icons/file-text';
import Globe from 'lucide-react/icons/globe';
import House from 'lucide-react/icons/house';
import Info from 'lucide-react/icons/info';
import KeyRound from 'lucide-react/icons/key-round';
import LogOut from 'lucide-react/icons/log-out';
import Mail from 'lucide-react/icons/mail';
import Menu from 'lucide-react/icons/menu';
import MessageSquare from 'lucide-react/icons/message-square';
import Pencil from 'lucide-react/icons/pencil';
import Phone from 'lucide-react/icons/phone';
import Plane from 'lucide-react/icons/plane';
import Receipt from 'lucide-react/icons/receipt';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import Shield from 'lucide-react/icons/shield';
import Signal from 'lucide-react/icons/signal';
import Smartphone from 'lucide-react/icons/smartphone';
import Sparkles from 'lucide-react/icons/sparkles';
import SunMoon from 'lucide-react/icons/sun-moon';
import Trash2 from 'lucide-react/icons/trash-2';
import TriangleAlert from 'lucide-react/icons/triangle-alert';
import User from 'lucide-react/icons/user';
import X from 'lucide-react/icons/x';
import type { LucideProps } from 'lucide-react';
import { ALDA_MARK_WAVES } from './splash-markup';

/*
 * The app's icons: lucide's (lucide-react, one module per icon, inline SVG: nothing extra to
 * download, nothing the CSP has to allow), with the app's defaults — sized by the class
 * (`size-6` unless given), 1.8 stroke, decorative (aria-hidden); give the surrounding control an
 * accessible name. The brand marks at the end are drawn here.
 */
export type IconProps = SVGProps<SVGSVGElement>;

/** A lucide icon with the app's defaults. */
export function appIcon(Glyph: ComponentType<LucideProps>) {
  function AppIcon({ className = 'size-6', ...props }: IconProps) {
    return (
      <Glyph
        strokeWidth={1.8}
        aria-hidden="true"
        focusable="false"
        className={className}
        {...(props as LucideProps)}
      />
    );
  }
  AppIcon.displayName = `AppIcon(${Glyph.displayName ?? 'lucide'})`;
  return AppIcon;
}

export const HomeIcon = /* @__PURE__ */ appIcon(House);
export const UserIcon = /* @__PURE__ */ appIcon(User);
export const MenuIcon = /* @__PURE__ */ appIcon(Menu);
export const ChevronLeftIcon = /* @__PURE__ */ appIcon(ChevronLeft);
export const ChevronRightIcon = /* @__PURE__ */ appIcon(ChevronRight);
export const GlobeIcon = /* @__PURE__ */ appIcon(Globe);
export const DocumentIcon = /* @__PURE__ */ appIcon(FileText);
export const ShieldIcon = /* @__PURE__ */ appIcon(Shield);
export const LogoutIcon = /* @__PURE__ */ appIcon(LogOut);
export const InfoIcon = /* @__PURE__ */ appIcon(Info);
export const WarningIcon = /* @__PURE__ */ appIcon(TriangleAlert);
export const ErrorIcon = /* @__PURE__ */ appIcon(CircleX);
export const CheckIcon = /* @__PURE__ */ appIcon(Check);
export const CloseIcon = /* @__PURE__ */ appIcon(X);
export const EyeIcon = /* @__PURE__ */ appIcon(Eye);
export const EyeOffIcon = /* @__PURE__ */ appIcon(EyeOff);
/** A mobile phone (a line, SMS login). */
export const PhoneIcon = /* @__PURE__ */ appIcon(Smartphone);
export const MailIcon = /* @__PURE__ */ appIcon(Mail);
/** A call. */
export const CallIcon = /* @__PURE__ */ appIcon(Phone);
export const MessageIcon = /* @__PURE__ */ appIcon(MessageSquare);
export const ThemeIcon = /* @__PURE__ */ appIcon(SunMoon);
/** Mobile data: signal bars. */
export const DataIcon = /* @__PURE__ */ appIcon(Signal);
export const PlaneIcon = /* @__PURE__ */ appIcon(Plane);
export const ReceiptIcon = /* @__PURE__ */ appIcon(Receipt);
export const RefreshIcon = /* @__PURE__ */ appIcon(RefreshCw);
export const SparkIcon = /* @__PURE__ */ appIcon(Sparkles);
export const PencilIcon = /* @__PURE__ */ appIcon(Pencil);
export const KeyIcon = /* @__PURE__ */ appIcon(KeyRound);
export const TrashIcon = /* @__PURE__ */ appIcon(Trash2);

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
