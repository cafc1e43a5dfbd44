import {
  CardSim,
  ChartColumn,
  Clock,
  Gift,
  Layers,
  Settings,
  ShoppingBag,
  Users,
  Wallet,
} from 'lucide-react';
import { appIcon } from './icons';

/* Icons of the account screens (home, family, manage, orders, plans): lucide's, as in icons.tsx. */

export const FamilyIcon = appIcon(Users);
export const ClockIcon = appIcon(Clock);
export const BagIcon = appIcon(ShoppingBag);
export const LayersIcon = appIcon(Layers);
export const SimIcon = appIcon(CardSim);
export const SettingsIcon = appIcon(Settings);
export const GiftIcon = appIcon(Gift);
export const WalletIcon = appIcon(Wallet);
export const ChartIcon = appIcon(ChartColumn);
