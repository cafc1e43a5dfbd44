// The bill screens' own icons, out of shared/ui/icons.tsx: that module is in the first
// download, and every icon it makes goes with it (issue 45).
import CircleAlert from 'lucide-react/icons/circle-alert';
import CircleCheck from 'lucide-react/icons/circle-check';
import CircleDashed from 'lucide-react/icons/circle-dashed';
import Clock from 'lucide-react/icons/clock';
import Copy from 'lucide-react/icons/copy';
import Ellipsis from 'lucide-react/icons/ellipsis';
import Landmark from 'lucide-react/icons/landmark';
import { appIcon } from '@/shared/ui/icons';

/** Bill states: each its own shape as well as its colour. */
export const PaidIcon = /* @__PURE__ */ appIcon(CircleCheck);
export const OpenIcon = /* @__PURE__ */ appIcon(Clock);
export const PartlyPaidIcon = /* @__PURE__ */ appIcon(CircleDashed);
export const OverdueIcon = /* @__PURE__ */ appIcon(CircleAlert);
export const CopyIcon = /* @__PURE__ */ appIcon(Copy);
/** A bank transfer. */
export const BankIcon = /* @__PURE__ */ appIcon(Landmark);
/** A use that is neither a call, an SMS nor data. */
export const OtherUseIcon = /* @__PURE__ */ appIcon(Ellipsis);
