// A sign-up's body, from JSON or an HTML form: the address and the components it names.
import { z } from 'zod';

const Email = z.string().trim().max(254).email();

const Components = z
  .union([z.string(), z.array(z.string().max(200)).max(200)])
  .optional()
  .transform((value) => [...new Set(value === undefined ? [] : typeof value === 'string' ? [value] : value)]);

export type SignupRequest = Readonly<{ email: string; components: readonly string[] }>;

export type SignupProblem = 'invalid_email' | 'invalid_parameters';

/** The components a manage form chose: none when it sent nothing usable. */
export const parseComponents = (body: unknown): string[] => {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const components = Components.safeParse(fields['components']);
  return components.success ? components.data : [];
};

/** The request, or what is wrong with it: the address first, as the reader fixes that first. */
export const parseSignup = (body: unknown): SignupRequest | SignupProblem => {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const email = Email.safeParse(fields['email']);
  if (!email.success) return 'invalid_email';
  const components = Components.safeParse(fields['components']);
  if (!components.success) return 'invalid_parameters';
  return { email: email.data, components: components.data };
};
