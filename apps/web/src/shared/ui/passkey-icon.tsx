import UserRoundKey from 'lucide-react/icons/user-round-key';
import { appIcon } from './icons';

/**
 * A passkey (ADR 0097): a person and a key, as the FIDO Alliance's passkey icon draws it. A
 * module of its own, not in icons.tsx: that module is in the entry's chunk with every icon it
 * names, and this one goes with the screens that show it (the login screen's button among them).
 */
export const PasskeyIcon = /* @__PURE__ */ appIcon(UserRoundKey);
