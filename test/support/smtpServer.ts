// A real SMTP server of the test's own (the smtp-server package) on a free loopback port: it keeps
// every message it accepts, raw, and answers the recipients the test names with its own codes.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = Readonly<{ from: string; to: readonly string[]; raw: Buffer }>;

export type TestSmtp = Readonly<{
  url: string;
  received: ReceivedMail[];
  /** RCPT TO answers by address: e.g. 550 for a mailbox that does not exist. */
  refuse: Map<string, number>;
  /** How many connections clients have opened so far. */
  connections: () => number;
  /** Resolves with the next message that reaches `to` (compared without case). */
  next: (to: string) => Promise<ReceivedMail>;
  close: () => Promise<void>;
}>;

export const startSmtp = async (): Promise<TestSmtp> => {
  const received: ReceivedMail[] = [];
  const refuse = new Map<string, number>();
  const waiting: { to: string; resolve: (mail: ReceivedMail) => void }[] = [];
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect: (_session, callback) => {
      connections += 1;
      callback();
    },
    onRcptTo: (address, _session, callback) => {
      const code = refuse.get(address.address);
      if (code === undefined) callback();
      else callback(Object.assign(new Error(`refused ${String(code)}`), { responseCode: code }));
    },
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
        const mail = { from, to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks) };
        received.push(mail);
        const to = mail.to.map((address) => address.toLowerCase());
        for (const wait of waiting.filter((w) => to.includes(w.to.toLowerCase()))) {
          waiting.splice(waiting.indexOf(wait), 1);
          wait.resolve(mail);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${String(port)}`,
    received,
    refuse,
    connections: () => connections,
    next: (to) => {
      return new Promise((resolve) => {
        waiting.push({ to, resolve });
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
