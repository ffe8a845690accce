// The public API, called exactly as a third party would: same-origin GETs, the page's token in an
// `Authorization: Bearer` header when it has one (never in a URL, where logs and Referer keep it),
// and the API's own error texts.
import type { TokenStore } from './token.ts';

type ApiProblem = 'locked' | 'missing' | 'blocked' | 'unavailable' | 'offline';

export class ApiFailure extends Error {
  override readonly name = 'ApiFailure';
  readonly problem: ApiProblem;
  constructor(problem: ApiProblem, message: string) {
    super(message);
    this.problem = problem;
  }
}

const problemOf = (status: number, error: string): ApiProblem => {
  if (status === 401 || (status === 403 && error === 'forbidden')) return 'locked';
  if (status === 403) return 'blocked';
  if (status === 404) return 'missing';
  return 'unavailable';
};

export type Api = <T>(path: string, query?: Readonly<Record<string, string>>) => Promise<T>;

export const createApi = (tokens: TokenStore, onFailure: (failure: ApiFailure) => void): Api => {
  const fail = (failure: ApiFailure): never => {
    onFailure(failure);
    throw failure;
  };
  return async <T>(path: string, query: Readonly<Record<string, string>> = {}): Promise<T> => {
    const search = new URLSearchParams(query).toString();
    const token = tokens.get();
    let response: Response;
    try {
      response = await fetch(search ? `${path}?${search}` : path, {
        headers: {
          Accept: 'application/json',
          ...(token === null ? {} : { Authorization: `Bearer ${token}` }),
        },
      });
    } catch {
      return fail(new ApiFailure('offline', 'The status service could not be reached.'));
    }
    if (response.ok) return (await response.json()) as T;
    const body = (await response.json().catch(() => ({}))) as { error?: unknown };
    const error = typeof body.error === 'string' ? body.error : response.statusText;
    return fail(new ApiFailure(problemOf(response.status, error), error));
  };
};

/** Runs a refresh whose API failures were already reported through `onFailure`; bugs still surface. */
export const quietly = (work: Promise<unknown>): void => {
  work.catch((error: unknown) => {
    if (!(error instanceof ApiFailure)) throw error;
  });
};
