// Graceful shutdown on SIGTERM and SIGINT: run the registered closers in reverse order, once.
type Closer = () => unknown;

export const createShutdown = (log: {
  info: (msg: string) => void;
  error: (obj: object, msg: string) => void;
}) => {
  const closers: Closer[] = [];
  let closing: Promise<void> | null = null;
  const shutdown = (): Promise<void> => {
    closing ??= (async () => {
      log.info('shutting down');
      for (const close of closers.reverse()) {
        try {
          await close();
        } catch (error) {
          log.error({ err: error }, 'error while shutting down');
        }
      }
    })();
    return closing;
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    // on, not once: npm forwards the terminal's Ctrl-C, so the service may get it twice.
    process.on(signal, () => void shutdown().then(() => process.exit(0)));
  return { onShutdown: (close: Closer) => void closers.push(close), shutdown };
};
