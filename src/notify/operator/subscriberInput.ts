// What POST /v1/pages/{slug}/subscribers accepts (notifications.md, "Operator-managed
// subscribers"): a channel and its target, optional components, monitor states and format.
import { z } from 'zod';

const httpsUrl = z
  .string()
  .max(2000)
  .url('must be a URL')
  .refine((value) => value.startsWith('https://'), 'must be an https URL');
const Components = z.array(z.string().min(1).max(200)).max(100).default([]);
const HttpChannel = z.enum(['webhook', 'slack', 'teams', 'discord']);

export const SubscriberInput = z
  .discriminatedUnion('channel', [
    z
      .object({
        channel: HttpChannel,
        url: httpsUrl,
        components: Components,
        monitor_states: z.boolean().default(false),
        format: z.enum(['native', 'statuspage']).default('native'),
      })
      .strict(),
    z
      .object({
        channel: z.literal('email'),
        email: z.string().trim().max(254).email('must be an email address'),
        components: Components,
        // Monitor states are never mailed (notifications.md).
        monitor_states: z
          .boolean()
          .default(false)
          .refine((value) => !value, 'email subscribers receive no monitor states'),
      })
      .strict(),
  ])
  .superRefine((input, ctx) => {
    if (input.channel !== 'email' && input.channel !== 'webhook' && input.format !== 'native')
      ctx.addIssue({ code: 'custom', message: 'only webhook subscribers have a format', path: ['format'] });
  });
export type SubscriberInput = z.infer<typeof SubscriberInput>;
