// The public URLs of a subscription, on the public listener (PUBLIC_BASE_URL).
const base = (baseUrl: string, slug: string) => `${baseUrl}/s/${encodeURIComponent(slug)}`;
const withToken = (url: string, token: string) => `${url}?token=${encodeURIComponent(token)}`;

export const subscribeUrl = (baseUrl: string, slug: string): string => `${base(baseUrl, slug)}/subscribe`;

export const confirmUrl = (baseUrl: string, slug: string, token: string): string =>
  withToken(`${base(baseUrl, slug)}/subscription/confirm`, token);

export const manageUrl = (baseUrl: string, slug: string, token: string): string =>
  withToken(`${base(baseUrl, slug)}/subscription`, token);

export const unsubscribeUrl = (baseUrl: string, slug: string, token: string): string =>
  withToken(`${base(baseUrl, slug)}/subscription/unsubscribe`, token);
