/**
 * Error messages both sandbox backends answer alike (ASP.NET wording, as both BigOven APIs were).
 * Each app adds its own on top (the key's name differs: `api_key` in legacy, header or query in api2).
 */
export const COMMON_MESSAGES = {
  badUser: 'Authentication failed: unknown user name or wrong password.',
  notFound: 'No HTTP resource was found that matches the request URI.',
  internal: 'An error has occurred.',
  paidOnly: (params: readonly string[]) =>
    `Authentication failed: ${params.join(', ')} ${params.length === 1 ? 'is' : 'are'} available on paid plans only.`,
  methodNotAllowed: (method: string) => `The requested resource does not support http method '${method}'.`,
} as const;
