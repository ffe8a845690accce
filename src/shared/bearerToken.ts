// The token of an `Authorization: Bearer <token>` header (ingest, integrations); undefined without one.
export const bearerToken = (header: string | undefined): string | undefined =>
  /^Bearer +(\S+) *$/i.exec(header ?? '')?.[1];
