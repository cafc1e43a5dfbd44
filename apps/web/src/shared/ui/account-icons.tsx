import CardSim from 'lucide-react/icons/card-sim';
import ChartColumn from 'lucide-react/icons/chart-column';
import Clock from 'lucide-react/icons/clock';
import Gift from 'lucide-react/icons/gift';
import Layers from 'lucide-react/icons/layers';
import Settings from 'lucide-react/icons/settings';
import ShoppingBag from 'lucide-react/icons/shopping-bag';
import Users from 'lucide-react/icons/users';
import Wallet from 'lucide-react/icons/wallet';
import { appIcon } from './icons';

/*
 * Icons of the account screens (home, family, manage, orders, plans): lucide's, as in icons.tsx
 * (one module per icon, so they load with those screens, not with the initial JS).
 */

export const FamilyIcon = /* @__PURE__ */ appIcon(Users);
export const ClockIcon = /* @__PURE__ */ appIcon(Clock);
export const BagIcon = /* @__PURE__ */ appIcon(ShoppingBag);
export const LayersIcon = /* @__PURE__ */ appIcon(Layers);
export const SimIcon = /* @__PURE__ */ appIcon(CardSim);
export const SettingsIcon = /* @__PURE__ */ appIcon(Settings);
export const GiftIcon = /* @__PURE__ */ appIcon(Gift);
export const WalletIcon = /* @__PURE__ */ appIcon(Wallet);
export const ChartIcon = /* @__PURE__ */ appIcon(ChartColumn);
