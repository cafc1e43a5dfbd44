import ScrollText from 'lucide-react/icons/scroll-text';
import { appIcon } from './icons';

/**
 * A monthly bill (ADR 0098): a long itemised sheet. A module of its own, not in icons.tsx: that
 * module is in the entry's chunk with every icon it names; this one goes with the menu and the
 * bill screens.
 */
export const BillIcon = /* @__PURE__ */ appIcon(ScrollText);
