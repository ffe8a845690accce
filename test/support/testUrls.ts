// The public URLs the projector builds links from in tests. Apart from projectorEnv.ts, which
// needs vitest: `npm run chaos` reads the models with readModels.ts outside vitest.
export const URLS = { baseUrl: 'http://status.test', pageUrlTemplate: '{base_url}/s/{slug}' } as const;
