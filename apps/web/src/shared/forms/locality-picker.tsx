import { useId, useMemo, useState, type KeyboardEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import {
  placeByName,
  placeOfPostCode,
  placesByPostCode,
  searchLocalities,
  type Locality,
} from '@alda/contract/localities/lookup';
import { POSTAL_CODE_LENGTH } from '@alda/contract/constants';
import { cx } from '@/shared/ui/cx';
import { CheckIcon } from '@/shared/ui/icons';
import { TextField } from '@/shared/ui/text-field';

/** What a form library hands a controlled field (react-hook-form's `field`). */
export interface LocalityFieldBinding {
  name: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  /** The field's error text, already translated. */
  error?: string;
}

export interface LocalityPickerProps {
  postCode: LocalityFieldBinding;
  city: LocalityFieldBinding;
  /** The inputs, for the form library to focus a field with an error. */
  postCodeInputRef?: Ref<HTMLInputElement>;
  cityInputRef?: Ref<HTMLInputElement>;
}

const SUGGESTIONS = 6;

/**
 * Postal code and place of a Faroese address (SPEC §3 "Locality reference list"):
 * - typing a postal code fills in its place; a code shared by several places (485) offers them
 *   to choose from;
 * - the place field searches the list by name (accent- and case-blind: 'torshavn', 'Nes (Vágur)')
 *   and by postal code, and picking a place fills in both fields;
 * - a name typed in full without picking is tidied to the list's spelling on leaving the field.
 */
export function LocalityPicker({
  postCode,
  city,
  postCodeInputRef,
  cityInputRef,
}: LocalityPickerProps) {
  const { t } = useTranslation();
  const id = useId();
  const listId = `${id}-places`;
  const errorsId = `${id}-errors`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);

  const code = postCode.value.trim();
  const sharedCodePlaces = useMemo(() => placesByPostCode(code), [code]);

  const suggestions = useMemo(() => {
    const query = city.value.trim();
    const found = query ? searchLocalities(query, SUGGESTIONS) : sharedCodePlaces;
    // Nothing to suggest once the field holds exactly the one place found.
    return found.length === 1 && found[0]?.name === query ? [] : found;
  }, [city.value, sharedCodePlaces]);
  const expanded = open && suggestions.length > 0;

  const pick = (place: Locality) => {
    // The postal code first, so the city is judged against the new code, not the old one.
    if (place.postCode) postCode.onChange(place.postCode);
    city.onChange(place.name);
    setOpen(false);
    setActive(-1);
  };

  const onPostCodeChange = (raw: string) => {
    const next = raw.replace(/\D/g, '').slice(0, POSTAL_CODE_LENGTH);
    postCode.onChange(next);
    if (next.length !== POSTAL_CODE_LENGTH) return;
    const places = placesByPostCode(next);
    if (places.length === 1 && places[0]) {
      city.onChange(places[0].name);
    } else if (places.length > 1 && !places.some((p) => p.name === city.value)) {
      // A place of another code would be wrong here; a name we do not know is the user's own.
      const known = placeByName(city.value);
      if (known && known.postCode !== next) city.onChange('');
    }
  };

  const onCityKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) return setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) =>
        suggestions.length ? (i + step + suggestions.length) % suggestions.length : -1,
      );
    } else if (event.key === 'Enter' && expanded && active >= 0) {
      event.preventDefault();
      const place = suggestions[active];
      if (place) pick(place);
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      setOpen(false);
    }
  };

  const onCityBlur = () => {
    setOpen(false);
    setActive(-1);
    // Tidy a name typed in full to the list's spelling ('torshavn' → 'Tórshavn'), and fill in the
    // postal code when there is none yet.
    if (city.value.trim()) {
      const place = code ? placeOfPostCode(code, city.value) : placeByName(city.value);
      if (place && !code && place.postCode) postCode.onChange(place.postCode);
      if (place && place.name !== city.value) city.onChange(place.name);
    }
    city.onBlur();
  };

  const errors = [postCode.error, city.error].filter(Boolean);

  return (
    <div className="flex flex-col gap-2">
      <div className="relative grid grid-cols-[7.5rem_1fr] gap-3">
        <TextField
          ref={postCodeInputRef}
          name={postCode.name}
          label={t('forms.locality.postCode')}
          value={postCode.value}
          onChange={(e) => onPostCodeChange(e.target.value)}
          onBlur={postCode.onBlur}
          inputMode="numeric"
          autoComplete="postal-code"
          maxLength={POSTAL_CODE_LENGTH}
          invalid={Boolean(postCode.error)}
          describedBy={postCode.error ? `${errorsId}-postCode` : undefined}
        />
        <TextField
          ref={cityInputRef}
          name={city.name}
          label={t('forms.locality.city')}
          value={city.value}
          onChange={(e) => {
            city.onChange(e.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => setOpen(true)}
          onBlur={onCityBlur}
          onKeyDown={onCityKeyDown}
          autoComplete="address-level2"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
          invalid={Boolean(city.error)}
          describedBy={city.error ? `${errorsId}-city` : undefined}
        />
        <ul
          id={listId}
          role="listbox"
          aria-label={t('forms.locality.suggestions')}
          hidden={!expanded}
          className="absolute top-full right-0 left-0 z-30 mt-1 max-h-72 overflow-y-auto rounded-2xl bg-white py-1 shadow-raised ring-1 ring-mist-200"
        >
          {suggestions.map((place, index) => (
            <li
              key={`${place.postCode}-${place.name}`}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              // Keep the focus in the field, so its blur does not close the list before the pick.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(place)}
              className={cx(
                'flex min-h-11 cursor-pointer items-center gap-3 px-4 py-2 text-body',
                index === active ? 'bg-fjord-50' : 'hover:bg-mist-50',
              )}
            >
              <span className="w-9 shrink-0 text-caption font-semibold text-mist-500 tabular-nums">
                {place.postCode}
              </span>
              <span className="font-medium text-mist-900">{place.name}</span>
            </li>
          ))}
        </ul>
      </div>
      {sharedCodePlaces.length > 1 && (
        <div className="flex flex-col gap-2 rounded-2xl bg-fjord-50 px-4 py-3">
          <p id={`${id}-choose`} className="text-caption font-medium text-fjord-700">
            {t('forms.locality.several', { code })}
          </p>
          <div role="radiogroup" aria-labelledby={`${id}-choose`} className="flex flex-wrap gap-2">
            {sharedCodePlaces.map((place) => {
              const selected = place.name === city.value;
              return (
                <button
                  key={place.name}
                  type="button"
                  role="radio"
                  aria-checked={selected}
                  onClick={() => pick(place)}
                  className={cx(
                    'inline-flex min-h-10 items-center gap-1.5 rounded-full px-4 text-body font-medium transition-colors',
                    selected
                      ? 'bg-fjord-600 text-white'
                      : 'bg-white text-ocean-900 ring-1 ring-mist-300 ring-inset hover:bg-mist-50',
                  )}
                >
                  {selected && <CheckIcon className="size-4" strokeWidth={2.5} />}
                  {place.name}
                </button>
              );
            })}
          </div>
        </div>
      )}
      {errors.length > 0 && (
        <div className="flex flex-col gap-1">
          {postCode.error && (
            <p id={`${errorsId}-postCode`} className="text-caption font-medium text-danger-600">
              {t('forms.fieldError', {
                field: t('forms.locality.postCode'),
                message: postCode.error,
              })}
            </p>
          )}
          {city.error && (
            <p id={`${errorsId}-city`} className="text-caption font-medium text-danger-600">
              {t('forms.fieldError', { field: t('forms.locality.city'), message: city.error })}
            </p>
          )}
        </div>
      )}
    </div>
  );
}

/** A react-hook-form `field` (without its ref) and its translated error, for the picker. */
export function bindingOf(
  field: {
    name: string;
    value: string | undefined;
    onChange: (value: string) => void;
    onBlur: () => void;
  },
  error: string | undefined,
): LocalityFieldBinding {
  return {
    name: field.name,
    value: field.value ?? '',
    onChange: field.onChange,
    onBlur: field.onBlur,
    error,
  };
}
