import { endOfMonth } from '@alda/contract/format/date';
import { splitVat } from '@alda/contract/format/money';
import type { Locale } from '@alda/contract/locale';
import type { PackageOffer, PackagesResponse } from '@alda/contract/schemas/packages';
import type { Db } from '../../db/client';
import type { ExtraPackageRow } from '../../db/schema/catalog';
import { AppError } from '../../errors';
import { localized } from '../plans/dto';
import { findOfferedPackage, findOfferedPackages } from './repo';

export interface PackageServiceDeps {
  db: Db;
  now: () => Date;
}

/** A package for sale; valid until the end of the current month in Atlantic/Faroe (SPEC §1). */
export function toPackageDto(row: ExtraPackageRow, locale: Locale, now: Date): PackageOffer {
  return {
    id: row.id,
    kind: row.kind,
    name: localized(row, locale),
    dataMb: row.dataMb,
    price: splitVat(row.priceOere),
    validUntil: endOfMonth(now).toISOString(),
  };
}

/** Extra packages for sale (SPEC §7 GET packages, GET packages/{id}). */
export function createPackageService(deps: PackageServiceDeps) {
  const { db, now } = deps;
  return {
    /** What the offer's answer depends on besides the catalogue: the month it is valid in. */
    offerMonth: () => endOfMonth(now()).toISOString(),

    async list(locale: Locale): Promise<PackagesResponse> {
      const at = now();
      return (await findOfferedPackages(db)).map((row) => toPackageDto(row, locale, at));
    },

    /** One package on offer; NOT_FOUND for an unknown or withdrawn one. */
    async get(id: string, locale: Locale): Promise<PackageOffer> {
      const row = await findOfferedPackage(db, id);
      if (!row) throw new AppError('NOT_FOUND', { field: 'id', detail: `no package ${id}` });
      return toPackageDto(row, locale, now());
    },
  };
}

export type PackageService = ReturnType<typeof createPackageService>;
