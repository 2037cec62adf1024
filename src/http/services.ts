// What handlers need besides the store, built once at start-up from the Config.
import type { Config } from '../config.js';
import { buildSiteTable, type BadgePolicy, type SiteTable } from '../domain/sites.js';
import type { Ctx } from './route.js';

/** Permission and rate-limit hooks (spec §5, §8). The default lets every edit through. */
export interface EditGuard {
  /** REFERENCE §7.7 step 7: may this client edit this entity (null id: create one)? Throws permission-denied. */
  authorize(ctx: Ctx, entityId: string | null): Promise<void>;
  /** Step 9: counts the edit against the client's budget; throws request-limit-reached. */
  consume(ctx: Ctx, creation: boolean): Promise<void>;
}

export const OPEN_GUARD: EditGuard = {
  async authorize() {},
  async consume() {},
};

export interface Services {
  config: Config;
  sites: SiteTable;
  badges: BadgePolicy;
  tags: ReadonlySet<string>;
  guard: EditGuard;
}

export function buildServices(config: Config, sitesOverride?: unknown, guard: EditGuard = OPEN_GUARD): Services {
  return {
    config,
    sites: buildSiteTable(sitesOverride),
    badges: { allowedBadges: new Set(config.allowedBadges) },
    tags: new Set(config.allowedTags),
    guard,
  };
}
