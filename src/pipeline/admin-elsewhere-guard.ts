/**
 * A request for `/admin` or under it on the main listener, when the admin views are served on an
 * admin listener of their own: no legacy operation lives there, so it is not passed to legacy as
 * an uncatalogued request (an operator's `POST /admin/rollout/x/pause` sent to the wrong port
 * would otherwise come back as legacy's 404); it is answered here, saying where the admin is.
 */
import type { Guard } from './guard.js';
import { refused } from './parts.js';

export const adminElsewhereGuard: Guard = ({ path, json }) => {
  const lower = path.toLowerCase();
  if (lower !== '/admin' && !lower.startsWith('/admin/')) return undefined;
  return refused(
    404,
    'uncatalogued',
    `${path} is an admin view or action: it is served on the gateway's admin listener (observability.admin.listen, ADMIN_PORT; npm start prints its address), not on this port.`,
    json,
  );
};
