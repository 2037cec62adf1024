// The entity a request's path names, read from its parameters: the REST routes name it by kind (`item_id`,
// `property_id`: the kind descriptor's pathParameter).
import { KINDS } from '../domain/kinds.js';

/** The raw entity id of a path, under whichever kind's parameter the route has. */
export function pathEntityParameter(params: Record<string, string>): string | undefined {
  for (const kind of KINDS) if (params[kind.pathParameter] !== undefined) return params[kind.pathParameter];
  return undefined;
}
