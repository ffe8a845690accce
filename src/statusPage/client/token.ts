// A private page's token lives in sessionStorage only (gone when the tab closes), one per slug.
// A token in the address (?auth_token=…, as in links the page owner shares) is moved there and
// removed from the address bar, so it does not end up in history or screenshots.
const keyOf = (slug: string): string => `status-page-token:${slug}`;

const storage = (): Storage | null => {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage disabled: the token lasts as long as the page
  }
};

export type TokenStore = Readonly<{
  get: () => string | null;
  set: (token: string) => void;
  clear: () => void;
}>;

export const createTokenStore = (slug: string): TokenStore => {
  let memory: string | null = null;
  const store = storage();
  const tokens: TokenStore = {
    get: () => store?.getItem(keyOf(slug)) ?? memory,
    set: (token) => {
      memory = token;
      store?.setItem(keyOf(slug), token);
    },
    clear: () => {
      memory = null;
      store?.removeItem(keyOf(slug));
    },
  };
  const url = new URL(window.location.href);
  const fromAddress = url.searchParams.get('auth_token');
  if (fromAddress) {
    tokens.set(fromAddress);
    url.searchParams.delete('auth_token');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
  return tokens;
};
