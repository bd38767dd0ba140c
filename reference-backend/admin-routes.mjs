// @ts-check
/**
 * The control surface under /__admin: faults, reset and the request log.
 * These routes are never logged, rate limited or faulted, so a test or the
 * demo page can always switch a fault off again.
 */
import { HttpError, isObject, parseJsonObject, readBody } from './http-io.mjs';

/** @typedef {import('./api-routes.mjs').RouteTable} RouteTable */

export const ADMIN_PREFIX = '/__admin/';

/**
 * @param {{
 *   faults: {list: () => import("./faults.mjs").FaultState[]},
 *   setFault: (name: string, on: boolean, detail?: string) => void,
 *   reset: () => void,
 *   requests: import('./request-log.mjs').RequestLogEntry[],
 * }} deps
 * @returns {RouteTable}
 */
export function createAdminRoutes({ faults, setFault, reset, requests }) {
  return {
    '/__admin/faults': {
      GET: async () => ({ status: 200, body: faults.list() }),
      POST: async (req) => {
        const body = parseJsonObject(await readBody(req, 16 * 1024, 'Request body exceeds 16 KB'));
        if (!isObject(body) || typeof body['name'] !== 'string' || typeof body['on'] !== 'boolean') {
          throw new HttpError(400, 'Expected {"name": string, "on": boolean, "detail"?: string}');
        }
        const detail = body['detail'];
        if (detail !== undefined && typeof detail !== 'string') {
          throw new HttpError(400, '"detail" must be a string');
        }
        try {
          setFault(body['name'], body['on'], detail);
        } catch (error) {
          throw new HttpError(400, error instanceof Error ? error.message : String(error));
        }
        return { status: 200, body: faults.list() };
      },
    },
    '/__admin/reset': {
      POST: async () => {
        reset();
        return { status: 204 };
      },
    },
    '/__admin/requests': {
      GET: async () => ({ status: 200, body: requests }),
      DELETE: async () => {
        requests.length = 0;
        return { status: 204 };
      },
    },
  };
}
