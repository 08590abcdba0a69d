/**
 * HTTP Basic as the legacy interface takes it: the user of a call (api2-notes, authentication [C];
 * the `api_key` is read with the query, src/request/credentials.ts). This module only parses and
 * writes the header; whether it is valid is the backend's to say. Nothing here logs a secret.
 */

export interface BasicCredentials {
  readonly user: string;
  readonly password: string;
}

/** Parses `Authorization: Basic <base64(user:password)>`; null when absent or malformed. */
export function parseBasic(authorization: string | undefined): BasicCredentials | null {
  if (!authorization) return null;
  const match = /^\s*basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
  if (!match?.[1]) return null;
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(base64ToBytes(match[1]));
  } catch {
    return null;
  }
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function basicHeader(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}
