// The support screens' own icons, out of shared/ui/icons.tsx: that module is in the first
// download, and every icon it makes goes with it (issue 45).
import ImagePlus from 'lucide-react/icons/image-plus';
import Send from 'lucide-react/icons/send';
import Star from 'lucide-react/icons/star';
import { appIcon } from '@/shared/ui/icons';

export const AddPhotoIcon = /* @__PURE__ */ appIcon(ImagePlus);
export const SendIcon = /* @__PURE__ */ appIcon(Send);
export const StarIcon = /* @__PURE__ */ appIcon(Star);
