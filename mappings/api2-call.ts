/**
 * Calling api2 from a mapping: the call label used in errors, and the rule that a non-2xx answer
 * becomes an Api2StatusError carrying api2's message.
 */
import { Api2StatusError } from './errors.js';
import type { Api2Port, Api2Reply, Api2Request } from './types.js';

export function callLabel(request: Api2Request): string {
  return `${request.method} ${request.path}`;
}

export async function expectOk(api2: Api2Port, request: Api2Request): Promise<Api2Reply> {
  const reply = await api2(request);
  if (reply.status >= 200 && reply.status < 300) return reply;
  const message =
    reply.body && typeof reply.body === 'object' && typeof (reply.body as { Message?: unknown }).Message === 'string'
      ? (reply.body as { Message: string }).Message
      : undefined;
  throw new Api2StatusError(reply.status, message, callLabel(request));
}
