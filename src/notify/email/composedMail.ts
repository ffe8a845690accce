// A mail ready for nodemailer's sendMail, built by pure code: plain data, no transport.
export type PreparedHeader = Readonly<{ prepared: true; value: string }>;

export type ComposedMail = Readonly<{
  from: string;
  to: string;
  subject: string;
  /** `<local@domain>`: stable per (message, subscriber), so a retry is the same mail. */
  messageId: string;
  text: string;
  html: string;
  headers: Readonly<Record<string, PreparedHeader>>;
}>;

/** Where a subscriber's links point, and who the mail is from. */
export type SubscriberLinks = Readonly<{
  from: string;
  /** MAIL_FROM's domain: the right-hand side of every Message-ID. */
  domain: string;
  manage: string;
  unsubscribe: string;
}>;
